import type { CallMeter } from '../billing/call-meter.js';

/** Tokens one piece of work used: what a generation adds to its request's usage. */
export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those the engine says it served from its prompt cache. */
  cachedTokens?: number | undefined;
}

const NOTHING_PENDING: Promise<void> = Promise.resolve();

/**
 * What one request has used, noted by the services that do its work as they do it: the edge makes
 * one per admitted request, hands it down in the operation context (`ctx.usage`), and makes the
 * request's usage record from it when the request ends (app/track-request.ts). Services add to it
 * and never read it back; nothing else holds the request's figures.
 *
 * A generation cut short (its client gone, a timeout, an upstream failure) has no figures from its
 * engine: its tokens are counted afterwards (services/chat/metered-parts.ts), and the record waits
 * for that count (`counted`).
 *
 * New figures of a request (a price, a reservation) belong here, beside the tokens, so that every
 * operation that notes its usage gets them without code of its own.
 */
export class RequestUsage {
  /** The model the tokens were used on: the body's `model`, unless the operation names another. */
  model: string | undefined = undefined;
  promptTokens = 0;
  completionTokens = 0;
  cachedTokens = 0;
  /**
   * The request's money while anything is priced: its reservation and the cost of its work
   * (services/billing/call-meter.ts); priced work reserves through it before it starts.
   */
  meter: CallMeter | undefined = undefined;
  private pending: Promise<void> = NOTHING_PENDING;

  /** Names the model the request's tokens are used on. */
  useModel(model: string): void {
    this.model = model;
  }

  /** Adds the tokens of one piece of work (a generation, a count). */
  add(tokens: TokenCounts): void {
    this.promptTokens += tokens.promptTokens;
    this.completionTokens += tokens.completionTokens;
    if (tokens.cachedTokens) this.cachedTokens += tokens.cachedTokens;
  }

  /**
   * Adds tokens that are still being counted. The record waits for the count; a count that fails
   * adds nothing (the counter gives an estimate instead of failing: see metered-parts.ts).
   */
  addLater(counting: Promise<TokenCounts>): void {
    const added = counting.then(
      (tokens) => this.add(tokens),
      () => {},
    );
    this.pending = this.pending === NOTHING_PENDING ? added : Promise.all([this.pending, added]).then(() => {});
  }

  /** Resolves once every count noted with `addLater` so far has been added. */
  counted(): Promise<void> {
    return this.pending;
  }

  /** True when no count noted with `addLater` is outstanding: the figures are final now. */
  get settled(): boolean {
    return this.pending === NOTHING_PENDING;
  }
}
