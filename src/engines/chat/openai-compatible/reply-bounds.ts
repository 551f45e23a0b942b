import { describeCause } from '../../upstream-errors.js';
import type { ResolvedOptions } from './options.js';
import { SseEventTooLargeError } from './sse-decoder.js';

/** A reply went past one of the deployment's bounds; the message names the bound and its config key. */
export class ReplyBoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplyBoundError';
  }
}

/**
 * Output events allowed for `maxTokens`: servers send at most one event per token (vLLM, Ollama) or a
 * couple (llama.cpp server's diffs), plus a few without a token (role, finish). An upstream past this
 * has surely gone on past `max_tokens`; counting events needs no tokenizer.
 */
export const maxOutputEvents = (maxTokens: number): number => 2 * maxTokens + 16;

/** Counts what one reply brings and throws a ReplyBoundError at the first bound it crosses. */
export class ReplyMeter {
  private bytes = 0;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly maxTokens: number,
  ) {}

  /** A chunk of a streamed body. */
  streamed(length: number): void {
    this.bytes += length;
    const limit = this.options.limits.maxReplyBytes;
    if (this.bytes > limit) throw new ReplyBoundError(`the reply exceeded ${limit} bytes (limits.max_reply_bytes)`);
  }

  /** A chunk of a body read whole (a JSON reply). */
  whole(length: number): void {
    this.bytes += length;
    const limit = this.options.limits.maxJsonBytes;
    if (this.bytes > limit) throw new ReplyBoundError(`the JSON reply exceeded ${limit} bytes (limits.max_json_bytes)`);
  }

  /** The usage of a whole reply: a completion longer than asked for means max_tokens was ignored. */
  completionTokens(count: number): void {
    if (count > this.maxTokens) {
      throw new ReplyBoundError(`the upstream went on past max_tokens (${this.maxTokens}): ${count} completion tokens`);
    }
  }
}

/** What went wrong on the wire, in words a client can act on: the timeouts name their config keys. */
export function transportCause(options: ResolvedOptions, err: unknown): string {
  if (err instanceof ReplyBoundError) return err.message;
  if (err instanceof SseEventTooLargeError) {
    return `one stream event exceeded ${options.limits.maxEventBytes} characters (limits.max_event_bytes)`;
  }
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
  if (code === 'UND_ERR_BODY_TIMEOUT')
    return `no bytes from the upstream for ${seconds(options.idleMs)} (timeouts.idle_ms)`;
  if (code === 'UND_ERR_HEADERS_TIMEOUT')
    return `no reply headers within ${seconds(options.headersMs)} (timeouts.headers_ms)`;
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return `no connection within ${seconds(options.connectMs)} (timeouts.connect_ms)`;
  return describeCause(err);
}

/** Whether the error is a bound or a timeout, whose message stands alone rather than in parentheses. */
export const isBound = (err: unknown): boolean =>
  err instanceof ReplyBoundError ||
  err instanceof SseEventTooLargeError ||
  (err instanceof Error && /^UND_ERR_(BODY|HEADERS|CONNECT)_TIMEOUT$/.test(String((err as { code?: unknown }).code)));
