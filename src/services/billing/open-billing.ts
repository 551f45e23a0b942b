import { ConfigError } from '../../config/config-error.js';
import type { Config } from '../../config/schema.js';
import { CHAT_MODEL_CODES, IMAGE_MODEL_CODES, TOKENIZER_MODEL_CODES } from '../../models/catalogue.js';
import type { Store } from '../../stores/types.js';
import { timeZoneProblem } from '../../util/calendar.js';
import type { LevelAware } from '../../util/failure-fields.js';
import type { AuditService } from '../audit/audit-service.js';
import { SecretBox } from '../keys/secret-box.js';
import { BillingService } from './billing-service.js';
import { MoneyDesk } from './money-desk.js';
import { PRICED_OPERATIONS, PriceBook } from './price-book.js';
import type { SpendStats } from './spend-stats.js';

export interface BillingDeps {
  store: Store;
  serverKey: Buffer;
  /** Where price changes, credits, debits, budgets, code batches and redemptions are recorded. */
  audit: AuditService;
  log: {
    warn(details: Record<string, unknown>, message: string): void;
    error(details: Record<string, unknown>, message: string): void;
  } & LevelAware;
  /** Spend and refusals for /metrics (the usage recorder counts what each call cost into it). */
  stats?: SpendStats;
}

/** Billing as the configuration asks for it: prices checked, reservations tended (docs/billing.md). */
export async function openBilling(
  config: Config,
  deps: BillingDeps,
): Promise<{ billing: BillingService; money: MoneyDesk }> {
  const zone = timeZoneProblem(config.billing.time_zone);
  if (zone) throw new ConfigError(`config: billing.time_zone: ${zone}`);
  const codes = new Set<string>([
    ...CHAT_MODEL_CODES,
    ...TOKENIZER_MODEL_CODES,
    ...IMAGE_MODEL_CODES,
    ...Object.keys(config.models),
    ...PRICED_OPERATIONS,
  ]);
  const prices = new PriceBook({
    configured: config.prices,
    store: deps.store.money,
    known: (code) => codes.has(code),
    onError: (err) =>
      deps.log.error({ err }, 'billing: reading edited prices failed; the last ones read stay in force'),
  });
  const billing = new BillingService({
    config: config.billing,
    store: deps.store,
    prices,
    audit: deps.audit,
    log: deps.log,
    stats: deps.stats,
  });
  await billing.start();
  return { billing, money: new MoneyDesk(billing, deps.store, new SecretBox(deps.serverKey)) };
}
