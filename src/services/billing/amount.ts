/**
 * Money as integers of the minor unit, a millionth of the currency (`billing.currency`): a
 * price per million tokens in whole minor units is then a price per token in millionths of a minor
 * unit, and no amount ever passes through a float. Decimal strings are read and written by their
 * digits. Every amount kept or summed stays within Number.MAX_SAFE_INTEGER (9e9 currency units).
 */
export const MINOR_DIGITS = 6;
export const MINOR_PER_UNIT = 10 ** MINOR_DIGITS;

/** The largest amount a balance, price or movement may hold: 10^12 - 1 currency units would not fit exactly. */
export const MAX_AMOUNT = 9_000_000_000 * MINOR_PER_UNIT;

const DECIMAL = /^(-)?([0-9]{1,12})(?:\.([0-9]{1,6}))?$/;

/** Why a decimal string is not an amount, or undefined when it is one. */
export function amountProblem(text: string, options: { negative?: boolean } = {}): string | undefined {
  const m = DECIMAL.exec(text);
  if (!m) return 'must be a decimal string such as "37.00", with at most 6 digits after the point';
  if (m[1] && !options.negative) return 'must not be negative';
  const value = toMinor(m);
  if (Math.abs(value) > MAX_AMOUNT) return `must be at most ${formatAmount(MAX_AMOUNT)}`;
  return undefined;
}

function toMinor(m: RegExpExecArray): number {
  const whole = Number(m[2]) * MINOR_PER_UNIT;
  const fraction = Number((m[3] ?? '').padEnd(MINOR_DIGITS, '0'));
  const value = whole + fraction;
  return m[1] ? -value : value;
}

/** The amount of a decimal string, exactly; throws a RangeError naming the rule when it is not one. */
export function parseAmount(text: string, options: { negative?: boolean } = {}): number {
  const problem = amountProblem(text, options);
  if (problem) throw new RangeError(problem);
  return toMinor(DECIMAL.exec(text)!);
}

/** `37000000` → `"37.00"`, `800` → `"0.0008"`: at least two decimals, the rest only where they are not 0. */
export function formatAmount(minor: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an amount in minor units: ${minor}`);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / MINOR_PER_UNIT);
  let fraction = String(abs % MINOR_PER_UNIT).padStart(MINOR_DIGITS, '0');
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${sign}${whole}.${fraction}`;
}
