import { type Static, Type } from '@sinclair/typebox';
import { DECIMAL_PATTERN, PriceSchema } from '../config/billing-schema.js';
import { ReplyObject, UnixSeconds } from './reply-helpers.js';

/**
 * Request and reply schemas of money over `/admin` (and the console's API): every amount is a
 * decimal string in `billing.currency`, exact to the minor unit (a millionth).
 */
const Money = (description: string) => Type.String({ pattern: '^-?[0-9]+[.][0-9]{2,6}$', description });
const Currency = Type.String({ description: 'ISO 4217 code (`billing.currency`).' });
const SignedDecimal = Type.String({
  pattern: '^-?[0-9]{1,12}([.][0-9]{1,6})?$',
  description: 'A decimal string, e.g. `"37.00"`; negative = a debit.',
});
const BudgetAmount = Type.Union([Type.String({ pattern: DECIMAL_PATTERN }), Type.Null()], {
  description: 'A decimal string; null or absent = no limit of this kind.',
});

export const CreateAccountBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128, pattern: '\\S' }),
    email: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' }),
  },
  { additionalProperties: false },
);

export const CreditBody = Type.Object(
  {
    amount: SignedDecimal,
    note: Type.Optional(Type.String({ maxLength: 500, description: 'Why: kept on the ledger entry.' })),
  },
  { additionalProperties: false },
);

export const BudgetBody = Type.Object(
  {
    total: Type.Optional(BudgetAmount),
    daily: Type.Optional(BudgetAmount),
    monthly: Type.Optional(BudgetAmount),
  },
  { additionalProperties: false },
);

export const CodeBatchBody = Type.Object(
  {
    amount: Type.String({ pattern: DECIMAL_PATTERN, description: 'What each code credits.' }),
    count: Type.Integer({ minimum: 1, description: 'How many codes (at most billing.max_redemption_codes).' }),
    expires_at: Type.Optional(Type.Integer({ minimum: 0, description: 'Unix seconds; absent: never.' })),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const RedeemBody = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 64, description: 'A code as handed out: `GPC-XXXX-XXXX-XXXX-XXXX`.' }),
  },
  { additionalProperties: false },
);

export const LedgerQuery = Type.Object(
  {
    account: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    kind: Type.Optional(
      Type.Union([Type.Literal('credit'), Type.Literal('debit'), Type.Literal('redeem'), Type.Literal('usage')]),
    ),
    since: Type.Optional(Type.String({ pattern: '^[0-9]{1,12}$', description: 'Unix seconds.' })),
    before: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$', description: 'Entries older than this id.' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1 to 1000; default 100.' })),
  },
  { additionalProperties: false },
);

export type CreditBody = Static<typeof CreditBody>;
export type BudgetBody = Static<typeof BudgetBody>;
export type CodeBatchBody = Static<typeof CodeBatchBody>;
export type LedgerQuery = Static<typeof LedgerQuery>;

export const PriceBody = PriceSchema;

export const BalanceReply = ReplyObject({
  account_id: Type.String(),
  balance: Money('The sum of the account’s ledger.'),
  reserved: Money('Held by calls in progress.'),
  available: Money('Balance less reserved: what new calls may reserve.'),
  currency: Currency,
});

export const LedgerEntryReply = ReplyObject({
  id: Type.Integer(),
  account_id: Type.String(),
  kind: Type.Union([Type.Literal('credit'), Type.Literal('debit'), Type.Literal('redeem'), Type.Literal('usage')]),
  amount: Money('Signed: credits and redemptions positive, debits and calls’ costs negative.'),
  balance_after: Money('The balance after this movement.'),
  currency: Currency,
  actor: Type.String({ description: '`key:<id>`, `account:<id>`: who moved it.' }),
  note: Type.String({ description: 'Why.' }),
  ref: Type.Union([Type.String(), Type.Null()], {
    description: 'A call’s usage journal id, or a redemption code’s batch.',
  }),
  key_id: Type.Union([Type.String(), Type.Null()], { description: 'The key of a call.' }),
  created_at: UnixSeconds,
});

export const LedgerReply = ReplyObject({
  data: Type.Array(LedgerEntryReply),
  /** For the next page: `before=<id>`. */
  next_before: Type.Union([Type.Integer(), Type.Null()]),
});

const BudgetLimits = ReplyObject({
  total: Type.Union([Money('Limit on all spend.'), Type.Null()]),
  daily: Type.Union([Money('Limit per day (billing.time_zone).'), Type.Null()]),
  monthly: Type.Union([Money('Limit per calendar month.'), Type.Null()]),
});

export const BudgetReply = ReplyObject({
  scope: Type.String({ description: '`key:<id>` or `account:<id>`.' }),
  budget: BudgetLimits,
  spent: ReplyObject({ total: Money('All spend.'), day: Money('Today.'), month: Money('This month.') }),
  reserved: Money('Held by calls in progress.'),
  currency: Currency,
  time_zone: Type.String(),
});

export const PriceView = ReplyObject({
  code: Type.String({ description: 'Model code or operation (`web_search`, `reader`, `tokenizer`).' }),
  price: Type.Union([PriceSchema, Type.Null()], { description: 'In force now; null = free.' }),
  source: Type.Union([Type.Literal('config'), Type.Literal('edited')]),
  configured: Type.Union([PriceSchema, Type.Null()], { description: 'The configured price under an edit.' }),
  updated_at: Type.Union([UnixSeconds, Type.Null()]),
  updated_by: Type.Union([Type.String(), Type.Null()]),
});

export const PricesReply = ReplyObject({ currency: Currency, data: Type.Array(PriceView) });

export const CodeBatchView = ReplyObject({
  id: Type.String(),
  amount: Money('What each code credits.'),
  currency: Currency,
  count: Type.Integer(),
  redeemed: Type.Integer({ description: 'Codes of the batch redeemed so far.' }),
  expires_at: Type.Union([UnixSeconds, Type.Null()]),
  note: Type.String(),
  created_by: Type.String(),
  created_at: UnixSeconds,
});

export const CodeBatchesReply = ReplyObject({ data: Type.Array(CodeBatchView) });

export const NewCodeBatchReply = ReplyObject({
  ...CodeBatchView.properties,
  codes: Type.Array(Type.String(), { description: 'The codes, to hand out; single use each.' }),
});

export const CodeBatchCodesReply = ReplyObject({
  batch: CodeBatchView,
  codes: Type.Array(
    ReplyObject({
      code: Type.String(),
      redeemed_by: Type.Union([Type.String(), Type.Null()], { description: 'The account that redeemed it.' }),
      redeemed_at: Type.Union([UnixSeconds, Type.Null()]),
    }),
  ),
});

export const AccountReply = ReplyObject({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  created_at: UnixSeconds,
  disabled_at: Type.Union([UnixSeconds, Type.Null()]),
});

export const NewAccountReply = ReplyObject({
  ...AccountReply.properties,
  password: Type.String({ description: 'The first console password; shown once.' }),
});

export const AccountsReply = ReplyObject({
  data: Type.Array(
    ReplyObject({
      ...AccountReply.properties,
      balance: Money('The account’s balance.'),
      reserved: Money('Held by calls in progress.'),
    }),
  ),
  currency: Currency,
});

const OperationUsage = ReplyObject({
  requests: Type.Integer(),
  promptTokens: Type.Integer(),
  completionTokens: Type.Integer(),
  cost: Money('What the calls cost.'),
});

/** The key's usage totals (their field names are those this reply has always had), with spend. */
export const KeyUsageReply = ReplyObject({
  id: Type.String(),
  since: Type.Integer({ description: 'Unix seconds.' }),
  requests: Type.Integer(),
  errors: Type.Integer(),
  promptTokens: Type.Integer(),
  completionTokens: Type.Integer(),
  totalTokens: Type.Integer(),
  cost: Money('What the key’s calls since `since` cost.'),
  currency: Currency,
  byOperation: Type.Record(Type.String(), OperationUsage),
  budget: Type.Union([BudgetReply, Type.Null()], { description: 'The key’s budget and spend, when it has one.' }),
});
