import type { BillingConfig } from '../../config/billing-schema.js';
import type { ApiError } from '../../errors/api-error.js';
import { quotaExhausted } from '../../errors/errors.js';
import type { Refusal } from '../../stores/money.js';
import type { Calendar } from '../../util/calendar.js';
import { formatAmount } from './amount.js';

const PERIOD = { total: 'total', daily: 'daily', monthly: 'monthly' } as const;

/**
 * 1113 (429) for a call that money refused, naming what ran out (the account's balance, or which
 * budget of the account or key) and what is left of it. A daily or monthly budget says when it
 * starts again (`Retry-After`).
 */
export function refusalError(refusal: Refusal, amount: number, config: BillingConfig, calendar: Calendar): ApiError {
  const money = (minor: number) => `${formatAmount(minor)} ${config.currency}`;
  const left = Math.max(0, refusal.limit - refusal.used);
  const [kind, id] = [
    refusal.scope.slice(0, refusal.scope.indexOf(':')),
    refusal.scope.slice(refusal.scope.indexOf(':') + 1),
  ];
  const cost = `this call may cost up to ${money(amount)}`;
  if (refusal.what === 'balance') {
    return quotaExhausted(
      `Insufficient balance: account ${id} has ${money(left)} available (balance ${money(refusal.limit)}, ${money(refusal.used)} held by calls in progress) and ${cost}; top up the account or redeem a code`,
    );
  }
  const now = Date.now();
  const when =
    refusal.what === 'daily'
      ? ` today (${config.time_zone})`
      : refusal.what === 'monthly'
        ? ` this month (${config.time_zone})`
        : '';
  const resets = refusal.what === 'total' ? undefined : secondsUntilNext(refusal.what, now, calendar);
  return quotaExhausted(
    `Budget reached: ${kind} ${id} has ${money(left)} left of its ${PERIOD[refusal.what]} budget of ${money(refusal.limit)}${when} (${money(refusal.used)} spent or held) and ${cost}`,
    resets === undefined ? undefined : { retryAfter: resets },
  );
}

/** Seconds until the next day or month starts in the configured zone. */
function secondsUntilNext(what: 'daily' | 'monthly', now: number, calendar: Calendar): number {
  const today = calendar.dayStart(now);
  let next: number;
  if (what === 'daily') next = calendar.dayStart(today + 25 * 3_600_000);
  else {
    const [year, month] = calendar.periodsOf(now).month.split('-').map(Number) as [number, number];
    const first = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
    next = calendar.dayStart(Date.parse(`${first}T12:00:00Z`));
  }
  return Math.max(1, Math.ceil((next - now) / 1000));
}
