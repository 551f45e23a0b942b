import type { PriceConfig } from '../../config/billing-schema.js';
import { formatAmount, parseAmount } from './amount.js';

/**
 * One model's or operation's price, in minor units (amount.ts). Immutable: a call holds the object
 * that was in force when it started, and its cost is computed from that one whatever changes later.
 */
export interface Price {
  /** Per million prompt tokens not served from a cache. */
  readonly inputPerMillion: number;
  /** Per million prompt tokens served from the engine's prompt cache. */
  readonly cachedInputPerMillion: number;
  readonly outputPerMillion: number;
  /** Per image of a size and quality that `perImageBy` does not name; undefined: such images are free. */
  readonly perImage: number | undefined;
  /** By `"<size> <quality>"`, `"<size>"` or `"<quality>"`. */
  readonly perImageBy: ReadonlyMap<string, number>;
  readonly perCall: number;
}

/** Tokens of one model call, as the engine reported them. */
export interface TokenCounts {
  promptTokens: number;
  /** Of the prompt tokens, those the engine served from its prompt cache (0 when it says nothing). */
  cachedTokens: number;
  completionTokens: number;
}

/** Reads a configured or edited price; throws a RangeError naming the field and the rule. */
export function parsePrice(config: PriceConfig): Price {
  const amount = (field: keyof PriceConfig, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    try {
      return parseAmount(text);
    } catch (err) {
      throw new RangeError(`${field}: ${(err as Error).message}`);
    }
  };
  const input = amount('input_per_million', config.input_per_million) ?? 0;
  const perImageBy = new Map<string, number>();
  for (const [key, text] of Object.entries(config.per_image_by ?? {})) {
    perImageBy.set(key, amount('per_image_by', text)!);
  }
  return {
    inputPerMillion: input,
    cachedInputPerMillion: amount('cached_input_per_million', config.cached_input_per_million) ?? input,
    outputPerMillion: amount('output_per_million', config.output_per_million) ?? 0,
    perImage: amount('per_image', config.per_image),
    perImageBy,
    perCall: amount('per_call', config.per_call) ?? 0,
  };
}

/** The price as the configuration and the API write it (decimal strings; absent fields left out). */
export function priceConfigOf(price: Price): PriceConfig {
  const out: PriceConfig = {};
  if (price.inputPerMillion > 0) out.input_per_million = formatAmount(price.inputPerMillion);
  if (price.cachedInputPerMillion !== price.inputPerMillion)
    out.cached_input_per_million = formatAmount(price.cachedInputPerMillion);
  if (price.outputPerMillion > 0) out.output_per_million = formatAmount(price.outputPerMillion);
  if (price.perImage !== undefined) out.per_image = formatAmount(price.perImage);
  if (price.perImageBy.size > 0)
    out.per_image_by = Object.fromEntries([...price.perImageBy].map(([k, v]) => [k, formatAmount(v)]));
  if (price.perCall > 0) out.per_call = formatAmount(price.perCall);
  return out;
}

/** Whether the price charges for tokens at all (a chat call then needs its prompt bounded). */
export const chargesTokens = (p: Price): boolean =>
  p.inputPerMillion > 0 || p.cachedInputPerMillion > 0 || p.outputPerMillion > 0;

const PER_MILLION = 1_000_000;

/**
 * The cost of tokens at a price, in minor units: exact (the products are summed in millionths of
 * the minor unit, in BigInt when they would pass 2^53) and rounded once, half up for a cost and up
 * for a worst case, so that a call's cost never exceeds its reservation for the same counts.
 */
export function tokenCost(price: Price, tokens: TokenCounts, rounding: 'half-up' | 'up' = 'half-up'): number {
  const cached = Math.min(Math.max(0, tokens.cachedTokens), tokens.promptTokens);
  const fresh = tokens.promptTokens - cached;
  const a = fresh * price.inputPerMillion;
  const b = cached * price.cachedInputPerMillion;
  const c = tokens.completionTokens * price.outputPerMillion;
  const sum = a + b + c;
  if (Number.isSafeInteger(a) && Number.isSafeInteger(b) && Number.isSafeInteger(c) && Number.isSafeInteger(sum)) {
    const whole = Math.floor(sum / PER_MILLION);
    const rest = sum - whole * PER_MILLION;
    if (rest === 0) return whole;
    return rounding === 'up' || rest * 2 >= PER_MILLION ? whole + 1 : whole;
  }
  const big =
    BigInt(fresh) * BigInt(price.inputPerMillion) +
    BigInt(cached) * BigInt(price.cachedInputPerMillion) +
    BigInt(tokens.completionTokens) * BigInt(price.outputPerMillion);
  const million = BigInt(PER_MILLION);
  const whole = big / million;
  const rest = big % million;
  if (rest === 0n) return Number(whole);
  return Number(rounding === 'up' || rest * 2n >= million ? whole + 1n : whole);
}

/** The price of one image of this size and quality; undefined when the price says nothing of images. */
export function imagePrice(price: Price, size: string, quality: string): number | undefined {
  return (
    price.perImageBy.get(`${size} ${quality}`) ??
    price.perImageBy.get(size) ??
    price.perImageBy.get(quality) ??
    price.perImage
  );
}
