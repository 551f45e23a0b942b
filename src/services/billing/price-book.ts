import type { PriceConfig } from '../../config/billing-schema.js';
import { ConfigError } from '../../config/config-error.js';
import type { MoneyStore, PriceOverride } from '../../stores/money.js';
import { type Price, parsePrice, priceConfigOf } from './price.js';

/** Operations priced per call by their own name rather than by a model's price. */
export const PRICED_OPERATIONS = ['web_search', 'reader', 'tokenizer'] as const;

/** A price as the admin API and the console show it. */
export interface PriceView {
  code: string;
  /** In force now; null: free (no price). */
  price: PriceConfig | null;
  /** `config`: from the configuration; `edited`: set by the admin over it (or where none was). */
  source: 'config' | 'edited';
  /** The configured price, when an edit is in force over it. */
  configured: PriceConfig | null;
  updated_at: number | null;
  updated_by: string | null;
}

export interface PriceBookOptions {
  configured: Record<string, PriceConfig>;
  store: MoneyStore;
  /** Whether a code names a model or operation this server knows (a typo would price nothing). */
  known(code: string): boolean;
  /** How often edits made by other processes are read (ms). */
  refreshMs?: number;
  onError?(err: unknown): void;
}

/**
 * The prices in force: the configuration's, with the admin's edits (kept in the store) over them.
 * A lookup is a map read on the request path; edits made in another process are read every
 * `refreshMs`, and this process's own at once. A call keeps the `Price` object it started with.
 */
export class PriceBook {
  private readonly configured = new Map<string, Price>();
  private current = new Map<string, Price>();
  private overrides = new Map<string, PriceOverride>();
  private timer: NodeJS.Timeout | undefined = undefined;

  constructor(private readonly options: PriceBookOptions) {
    for (const [code, config] of Object.entries(options.configured)) {
      if (!options.known(code)) {
        throw new ConfigError(
          `config: prices.${code}: not a model code of the catalogue or the configuration, nor an operation (${PRICED_OPERATIONS.join(', ')})`,
        );
      }
      try {
        this.configured.set(code, parsePrice(config));
      } catch (err) {
        throw new ConfigError(`config: prices.${code}.${(err as Error).message}`);
      }
    }
    this.current = new Map(this.configured);
  }

  /** Reads the edits, then keeps reading them in the background. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => {
      this.refresh().catch((err: unknown) => this.options.onError?.(err));
    }, this.options.refreshMs ?? 2000);
    this.timer.unref();
  }

  close(): void {
    clearInterval(this.timer);
  }

  /** Whether any model or operation has a price: without one, nothing is billed or reserved. */
  get any(): boolean {
    return this.current.size > 0;
  }

  priceOf(code: string): Price | undefined {
    return this.current.get(code);
  }

  list(): PriceView[] {
    const codes = new Set([...this.configured.keys(), ...this.overrides.keys()]);
    return [...codes].sort().map((code) => {
      const edit = this.overrides.get(code);
      const configured = this.configured.get(code);
      const inForce = this.current.get(code);
      return {
        code,
        price: inForce ? priceConfigOf(inForce) : null,
        source: edit ? 'edited' : 'config',
        configured: edit && configured ? priceConfigOf(configured) : null,
        updated_at: edit ? Math.floor(edit.updatedAt / 1000) : null,
        updated_by: edit?.updatedBy ?? null,
      };
    });
  }

  view(code: string): PriceView | undefined {
    return this.list().find((p) => p.code === code);
  }

  /** Puts a price (or, with null, "free") in force over the configured one. Throws a RangeError naming the field. */
  async set(code: string, price: PriceConfig | null, actor: string): Promise<void> {
    if (!this.options.known(code)) {
      throw new RangeError(
        `code: ${code} is not a model code of the catalogue or the configuration, nor an operation (${PRICED_OPERATIONS.join(', ')})`,
      );
    }
    const parsed = price === null ? null : parsePrice(price);
    await this.options.store.setPriceOverride({
      code,
      price: parsed === null ? null : JSON.stringify(priceConfigOf(parsed)),
      updatedAt: Date.now(),
      updatedBy: actor,
    });
    await this.refresh();
  }

  /** Drops the admin's edit: the configured price (or none) is in force again. False when there was none. */
  async reset(code: string): Promise<boolean> {
    const dropped = await this.options.store.deletePriceOverride(code);
    await this.refresh();
    return dropped;
  }

  async refresh(): Promise<void> {
    const edits = await this.options.store.priceOverrides();
    const next = new Map(this.configured);
    const overrides = new Map<string, PriceOverride>();
    for (const edit of edits) {
      overrides.set(edit.code, edit);
      if (edit.price === null) next.delete(edit.code);
      else next.set(edit.code, this.reuse(edit.code, parsePrice(JSON.parse(edit.price) as PriceConfig)));
    }
    this.overrides = overrides;
    this.current = next;
  }

  /** The object already in force when the price did not change, so that calls compare by identity cheaply. */
  private reuse(code: string, price: Price): Price {
    const now = this.current.get(code);
    return now && JSON.stringify(priceConfigOf(now)) === JSON.stringify(priceConfigOf(price)) ? now : price;
  }
}
