import type { ResponseObject, ResponseStreamEvent } from '../../api/responses-reply.js';
import { ApiError } from '../../errors/api-error.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import type { StreamFailureLog } from '../stream-failure.js';
import type { ItemEvent } from './output-builder.js';
import { type Outcome, outcomeOf, responseObject } from './response-object.js';
import type { Ending, ResponseRun, ResponsesService } from './responses-service.js';

const WAITING = Symbol('waiting');

/**
 * The stream of one response (docs/wire.md, "Responses"): `response.created` and
 * `response.in_progress` once the model's first part exists (a failure before it is an ordinary
 * error reply) or once `keepaliveMs` has passed without one, then the events that build each
 * output item, and a `keepalive` whenever the model is silent for `keepaliveMs` (a long prompt
 * being read): clients and proxies that close a silent stream keep it. Each event is numbered by
 * `sequence_number` and framed as `event: <type>` + `data: <json>`. The last event,
 * `response.completed`, `.incomplete` or `.failed` (after an `error` event), is `last()`: the
 * writer sends it once the request's usage is durable.
 */
export class ResponseStream {
  private sequence = 0;
  private ending: Ending | undefined = undefined;

  constructor(
    private readonly service: ResponsesService,
    private readonly run: ResponseRun,
    private readonly signal: CancelSignal,
    private readonly log: StreamFailureLog,
    private readonly keepaliveMs: number,
  ) {}

  async *events(): AsyncGenerator<string> {
    const { run } = this;
    const parts = run.parts[Symbol.asyncIterator]();
    let engineDone = false;
    try {
      let pending = parts.next();
      // Awaited before anything is yielded: a failure here is the reply's status, not an event.
      let next = await this.within(pending);
      yield this.frame({ type: 'response.created', response: this.snapshot('in_progress') });
      yield this.frame({ type: 'response.in_progress', response: this.snapshot('in_progress') });
      const events: ItemEvent[] = [];
      let outcome: Outcome | undefined;
      try {
        for (;;) {
          if (next === WAITING) {
            yield this.frame({ type: 'keepalive' });
            next = await this.within(pending);
            continue;
          }
          if (next.done) break;
          const part = next.value;
          if (part.type === 'finish') {
            run.chat.usage = part.usage;
            outcome = outcomeOf(part.reason);
          } else run.builder.push(part, events);
          for (const event of events) yield this.frame(event);
          events.length = 0;
          pending = parts.next();
          next = await this.within(pending);
        }
        engineDone = true;
      } catch (err) {
        engineDone = true;
        if (this.signal.aborted) return;
        this.log(err, 'stream failed after its first event');
        outcome = failed(err);
      }
      if (this.signal.aborted) return;
      outcome ??= failed(undefined);
      try {
        this.ending = await this.service.finish(run, outcome, events);
      } catch (err) {
        // The response could not be stored: said so rather than promised.
        this.log(err, 'the response could not be stored');
        const stored: Outcome = {
          status: 'failed',
          error: { code: 'server_error', message: 'The response could not be stored; retry later' },
        };
        this.ending = {
          outcome: stored,
          response: responseObject(run.echo, stored, run.builder.output, run.chat.usage),
        };
      }
      for (const event of events) yield this.frame(event);
    } finally {
      if (!engineDone) await parts.return?.();
    }
  }

  /** The last event(s), once the others are out: the writer calls it after the usage is durable. */
  last(): string {
    const ending = this.ending;
    if (ending === undefined) return '';
    const { response } = ending;
    if (response.status === 'completed') return this.frame({ type: 'response.completed', response });
    if (response.status === 'incomplete') return this.frame({ type: 'response.incomplete', response });
    const error = response.error ?? { code: 'server_error', message: 'The response failed' };
    return (
      this.frame({
        type: 'error',
        code: error.code,
        message: error.message,
        param: null,
        error: { type: 'server_error', code: error.code, message: error.message, param: null },
      }) + this.frame({ type: 'response.failed', response })
    );
  }

  /** The step's result, or WAITING when it has not come within `keepaliveMs` (the step goes on). */
  private within<T>(step: Promise<T>): Promise<T | typeof WAITING> {
    let timer: NodeJS.Timeout | undefined;
    const waiting = new Promise<typeof WAITING>((resolve) => {
      timer = setTimeout(resolve, this.keepaliveMs, WAITING);
    });
    return Promise.race([step, waiting]).finally(() => clearTimeout(timer));
  }

  private snapshot(status: ResponseObject['status']): ResponseObject {
    return responseObject(this.run.echo, { status }, [], undefined);
  }

  private frame(event: ItemEvent): string {
    const numbered = { ...event, sequence_number: this.sequence++ } as ResponseStreamEvent;
    return `event: ${event.type}\ndata: ${JSON.stringify(numbered)}\n\n`;
  }
}

/** A failure after the stream began, as the response's outcome (an ApiError's message is the client's to see). */
function failed(err: unknown): Outcome {
  if (err === undefined) return outcomeOf('network_error');
  const message = err instanceof ApiError ? err.message : 'The model failed while generating';
  return { status: 'failed', error: { code: 'server_error', message } };
}
