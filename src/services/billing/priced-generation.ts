import { tokenUpperBound } from '../../engines/chat/token-bound.js';
import type { ChatEngine, ChatRequest } from '../../engines/chat/types.js';
import { type CallMeter, type MeterLine, WAIT } from './call-meter.js';
import { chargesTokens, type Price, tokenCost } from './price.js';

/** Tokens as an engine reports them; `cachedTokens` where it says how many came from its prompt cache. */
export interface ReportedTokens {
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those served from the engine's prompt cache; absent or undefined: it did not say. */
  cachedTokens?: number | undefined;
}

/** Where a generation's tokens go: the request's usage, or a priced generation in front of it. */
export interface UsageSink {
  add(tokens: ReportedTokens): void;
  addLater(counting: Promise<ReportedTokens>): void;
}

/**
 * Tokens a media part (an image, a video, a file) may add to a prompt beyond its text: generous, a
 * reservation is an upper bound; the prompt as a whole never exceeds the deployment's context.
 */
const MEDIA_PART_TOKENS = 4096;

/**
 * The prompt tokens a generation may be billed, without a tokenizer: every byte-level tokenizer
 * gives at most one token per byte (engines/chat/token-bound.ts), plus an allowance per media part,
 * and never more than the context window holds.
 */
export function promptBound(request: Pick<ChatRequest, 'messages' | 'tools'>, maxContext: number): number {
  let media = 0;
  for (const m of request.messages) {
    if (m.role === 'user' && Array.isArray(m.content)) for (const p of m.content) if (p.type !== 'text') media++;
  }
  return Math.min(maxContext, tokenUpperBound(request.messages, request.tools) + media * MEDIA_PART_TOKENS);
}

/** One generation at the price it started with: its tokens as they come, and its share of the reservation. */
class PricedGeneration implements UsageSink, MeterLine {
  private prompt = 0;
  private cached = 0;
  private completion = 0;
  private used = false;
  private ended = false;

  constructor(
    private readonly usage: UsageSink,
    private readonly meter: CallMeter,
    private readonly price: Price,
    private readonly worst: number,
  ) {}

  add(tokens: ReportedTokens): void {
    this.usage.add(tokens);
    this.own(tokens);
  }

  addLater(counting: Promise<ReportedTokens>): void {
    this.usage.addLater(
      counting.then((tokens) => {
        this.own(tokens);
        return tokens;
      }),
    );
  }

  cost(): number {
    if (!this.used) return 0;
    return (
      this.price.perCall +
      tokenCost(this.price, {
        promptTokens: this.prompt,
        cachedTokens: this.cached,
        completionTokens: this.completion,
      })
    );
  }

  /** The engine's figures (a finish part, or the count of a generation cut short): the generation is over. */
  private own(tokens: ReportedTokens): void {
    this.used = true;
    this.prompt += tokens.promptTokens;
    this.completion += tokens.completionTokens;
    const cached = tokens.cachedTokens ?? 0;
    this.cached += cached;
    this.meter.cachedTokens += cached;
    if (this.ended) return;
    this.ended = true;
    this.meter.finish(this.worst, this.cost());
  }
}

/**
 * Before a generation starts: reserves its worst case when its model has a price — the prompt's
 * bound (or, when that does not fit, its exact count) at the input price and `maxTokens` at the
 * output price — and returns where its tokens go, priced. Without a meter or a price, the usage.
 * Throws 1113 when even the exact worst case does not fit.
 */
export async function priceGeneration(
  usage: UsageSink & { meter?: CallMeter | undefined },
  model: string,
  engine: Pick<ChatEngine, 'countTokens' | 'capabilities'>,
  request: Pick<ChatRequest, 'messages' | 'tools' | 'maxTokens'>,
): Promise<UsageSink> {
  const meter = usage.meter;
  const price = meter?.priceOf(model);
  if (meter === undefined || price === undefined) return usage;
  const bound = promptBound(request, engine.capabilities.maxContext);
  let worst = worstCase(price, bound, request.maxTokens);
  const refusal = await meter.tryReserve(worst);
  if (refusal) {
    // The bound is about 4× the prompt for English text: near the limit, the exact count decides.
    const exact = chargesTokens(price)
      ? await engine.countTokens(request.messages, request.tools).catch(() => bound)
      : bound;
    const exactWorst = worstCase(price, Math.min(exact, bound), request.maxTokens);
    if (exactWorst >= worst) throw meter.refuse(refusal, worst);
    worst = exactWorst;
    await meter.reserve(worst);
  }
  return priced(usage, meter, price, worst);
}

/**
 * `priceGeneration` without waiting, where the store answers reservations at once and the bound's
 * worst case fits (most calls): where its tokens go. WAIT, with nothing reserved, where it cannot
 * say at once or the bound does not fit: the caller then takes `priceGeneration`, which also tries
 * the exact count and refuses.
 */
export function priceGenerationNow(
  usage: UsageSink & { meter?: CallMeter | undefined },
  model: string,
  engine: Pick<ChatEngine, 'capabilities'>,
  request: Pick<ChatRequest, 'messages' | 'tools' | 'maxTokens'>,
): UsageSink | typeof WAIT {
  const meter = usage.meter;
  const price = meter?.priceOf(model);
  if (meter === undefined || price === undefined) return usage;
  const worst = worstCase(price, promptBound(request, engine.capabilities.maxContext), request.maxTokens);
  if (meter.tryReserveNow(worst) !== undefined) return WAIT;
  return priced(usage, meter, price, worst);
}

/** A generation's worst case: its price per call, the prompt's tokens at the input price and `maxTokens` at the output price. */
function worstCase(price: Price, promptTokens: number, maxTokens: number): number {
  return price.perCall + tokenCost(price, { promptTokens, cachedTokens: 0, completionTokens: maxTokens }, 'up');
}

function priced(usage: UsageSink, meter: CallMeter, price: Price, worst: number): UsageSink {
  const line = new PricedGeneration(usage, meter, price, worst);
  meter.add(line);
  return line;
}
