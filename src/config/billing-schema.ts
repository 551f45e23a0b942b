import { type Static, Type } from '@sinclair/typebox';

/**
 * A non-negative amount of money as a decimal string: at most 12 digits before the point and 6
 * after it (the minor unit is a millionth of the currency). Read exactly, never as a float.
 */
export const DECIMAL_PATTERN = '^[0-9]{1,12}([.][0-9]{1,6})?$';
const Decimal = (description: string) => Type.String({ pattern: DECIMAL_PATTERN, description });

/** `<size>`, `<quality>` or `<size> <quality>`, e.g. `1024x1024`, `hd`, `1024x1024 hd`. */
export const IMAGE_PRICE_KEY_PATTERN = '^(([0-9]+x[0-9]+)|(hd|standard)|([0-9]+x[0-9]+ (hd|standard)))$';

export const PriceSchema = Type.Object(
  {
    input_per_million: Type.Optional(Decimal('Per million prompt tokens.')),
    cached_input_per_million: Type.Optional(
      Decimal('Per million prompt tokens served from the engine’s prompt cache; default the input price.'),
    ),
    output_per_million: Type.Optional(Decimal('Per million completion tokens (reasoning included).')),
    per_image: Type.Optional(Decimal('Per generated image, for a size and quality not in `per_image_by`.')),
    per_image_by: Type.Optional(
      Type.Record(Type.String({ pattern: IMAGE_PRICE_KEY_PATTERN }), Decimal('Per image of that size/quality.'), {
        description:
          'Per image by `"<size> <quality>"`, `"<size>"` or `"<quality>"` (looked up in that order), e.g. `{"2048x2048 hd": "0.40", hd: "0.25"}`.',
      }),
    ),
    per_call: Type.Optional(Decimal('Per call, on top of any token or image price.')),
  },
  { additionalProperties: false },
);
export type PriceConfig = Static<typeof PriceSchema>;

export const PricesConfigSchema = Type.Record(Type.String({ minLength: 1, maxLength: 64 }), PriceSchema, {
  default: {},
  description:
    'Prices by model code (chat, image) or operation (`web_search`, `reader`, `tokenizer`), as decimal strings in `billing.currency`. A model or operation without a price costs nothing and needs no balance. The admin may change them over `/admin/prices` and in the console (stored, and in force over these).',
});

/** `billing:` the currency, budgets' calendar, and how reservations are held (docs/billing.md). */
export const BillingConfigSchema = Type.Object(
  {
    currency: Type.String({
      pattern: '^[A-Z]{3}$',
      default: 'CNY',
      description: 'ISO 4217 code of every price, balance and budget; amounts are kept in millionths of it.',
    }),
    time_zone: Type.String({
      minLength: 1,
      default: 'UTC',
      description:
        'IANA time zone in which per-day and per-month budgets start and end (e.g. `Asia/Shanghai`); spend already counted keeps the day it was counted in.',
    }),
    require_balance: Type.Boolean({
      default: true,
      description:
        'A priced call needs a balance that covers its worst case (prepaid). `false`: balances may go below zero and only budgets refuse calls (postpaid).',
    }),
    lease_seconds: Type.Integer({
      minimum: 5,
      maximum: 600,
      default: 30,
      description:
        'A reservation of a call in progress is renewed by its process every third of this; a process that dies leaves its reservations to be released by another within this time.',
    }),
    max_redemption_codes: Type.Integer({
      minimum: 1,
      maximum: 100_000,
      default: 10_000,
      description: 'Most redemption codes in one batch.',
    }),
  },
  { additionalProperties: false, default: {} },
);
export type BillingConfig = Static<typeof BillingConfigSchema>;
