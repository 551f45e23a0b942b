import type { AnthropicMessage } from '../../api/anthropic-reply.js';
import { ApiError } from '../../errors/api-error.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import type { StreamFailureLog } from '../stream-failure.js';
import type { AnthropicService, MessageRun } from './anthropic-service.js';
import type { BlockEvent } from './message-builder.js';

const WAITING = Symbol('waiting');

/** Anthropic's error types of a failure after the stream began, by the failure's HTTP status. */
export type ErrorTypeOf = (status: number) => string;

/**
 * The stream of one message (docs/wire.md, "Anthropic Messages"), framed `event: <type>` +
 * `data: <json>` as Anthropic's SDKs parse it: `message_start` and a `ping` once the model's first
 * part exists (a failure before it is an ordinary error reply) or once `pingMs` has passed without
 * one; then `content_block_start`, `content_block_delta` and `content_block_stop` per block, a
 * `ping` whenever the model is silent for `pingMs`; and, as `last()` (sent once the usage is
 * durable), `message_delta` with the stop reason and usage, and `message_stop`. A failure after
 * the start is an `error` event, the stream's last.
 */
export class MessageStream {
  private ending: AnthropicMessage | undefined = undefined;

  constructor(
    private readonly service: AnthropicService,
    private readonly run: MessageRun,
    private readonly signal: CancelSignal,
    private readonly pingMs: number,
    private readonly errorType: ErrorTypeOf,
    private readonly log: StreamFailureLog,
  ) {}

  async *events(): AsyncGenerator<string> {
    const { run, service } = this;
    const events: BlockEvent[] = [];
    let begun = false;
    let over = false;
    try {
      let step = service.step(run, events);
      for (;;) {
        const more = await this.within(step);
        if (!begun) {
          begun = true;
          yield this.start();
          yield frame({ type: 'ping' });
        } else if (more === WAITING) yield frame({ type: 'ping' });
        if (more === WAITING) continue;
        for (const event of events) yield frame(event);
        events.length = 0;
        if (!more) break;
        step = service.step(run, events);
      }
      over = true;
      if (this.signal.aborted) return;
      this.ending = await service.finish(run, events);
      for (const event of events) yield frame(event);
    } catch (err) {
      over = true;
      if (!begun) throw err;
      if (this.signal.aborted) return;
      this.log(err, 'stream failed after its first event');
      const status = err instanceof ApiError ? err.status : 500;
      const message = err instanceof ApiError ? err.message : 'The model failed while generating';
      yield frame({ type: 'error', error: { type: this.errorType(status), message } });
    } finally {
      if (!over) await run.parts?.return?.();
    }
  }

  /** The stream's end, once the others are out: the writer calls it after the usage is durable. */
  last(): string {
    const message = this.ending;
    if (message === undefined) return '';
    const delta = {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
      usage: message.usage,
    };
    return frame(delta) + frame({ type: 'message_stop' });
  }

  private start(): string {
    const usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const message = { ...this.service.message(this.run, null, usage), content: [] };
    return frame({ type: 'message_start', message });
  }

  /** The step's result, or WAITING when it has not come within `pingMs` (the step goes on). */
  private within<T>(step: Promise<T>): Promise<T | typeof WAITING> {
    let timer: NodeJS.Timeout | undefined;
    const waiting = new Promise<typeof WAITING>((resolve) => {
      timer = setTimeout(resolve, this.pingMs, WAITING);
    });
    return Promise.race([step, waiting]).finally(() => clearTimeout(timer));
  }
}

function frame(event: { type: string; [field: string]: unknown }): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
