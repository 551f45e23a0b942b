import { Counter, type Registry } from 'prom-client';
import type { SpendStats } from '../../services/billing/spend-stats.js';

/**
 * Money in /metrics, read from the process's counts at scrape time (nothing is counted per request
 * here): spend by model (or operation) and account, in millionths of the currency (an integer
 * count, exact as Prometheus keeps it), calls refused for money, and reservations of dead processes
 * released when their lease ran out.
 */
export function billingMetrics(read: () => { stats: SpendStats; currency: string }, registers: Registry[]): void {
  new Counter({
    name: 'gen_platform_spend_micros_total',
    help: 'What calls cost, in millionths of the currency (billing.currency), by model or operation and paying account; counted when the call ends.',
    labelNames: ['model', 'account', 'currency'],
    registers,
    collect() {
      this.reset();
      const { stats, currency } = read();
      for (const s of stats.spend.values()) this.inc({ model: s.model, account: s.account, currency }, s.amount);
    },
  });
  new Counter({
    name: 'gen_platform_budget_refusals_total',
    help: 'Calls refused with 1113 because a balance or budget did not cover them, by scope (account, key) and what ran out (balance, total, daily, monthly).',
    labelNames: ['scope', 'what'],
    registers,
    collect() {
      this.reset();
      for (const r of read().stats.refusals.values()) this.inc({ scope: r.scope, what: r.what }, r.count);
    },
  });
  new Counter({
    name: 'gen_platform_reservations_expired_total',
    help: 'Reservations of calls whose process stopped renewing them (it died) released by this process when their lease ran out.',
    registers,
    collect() {
      this.reset();
      this.inc(read().stats.expiredReleases);
    },
  });
}
