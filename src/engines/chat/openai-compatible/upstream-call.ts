import type { IncomingHttpHeaders } from 'node:http';
import type { Agent, Dispatcher } from 'undici';
import type { ApiError } from '../../../errors/api-error.js';
import { failedOnStaleConnection, freshConnection } from '../../../net/upstream-agent.js';
import type { CancelSignal } from '../../../util/cancel-signal.js';
import { describeCause, statusError, upstreamFailure } from '../../upstream-errors.js';
import type { ChatRequest, ChatStreamPart, PartIterator } from '../types.js';
import { type ChunkMapper, UpstreamReportedError } from './chunk-mapper.js';
import type { ResolvedOptions } from './options.js';
import { isBound, maxOutputEvents, ReplyMeter, transportCause } from './reply-bounds.js';
import { IncompleteStreamError, mapWholeReply, SseRelay } from './sse-relay.js';

export interface CallTarget {
  options: ResolvedOptions;
  agent: Agent;
  origin: string;
  path: string;
  headers: Record<string, string>;
  /** Whether the call asks for SSE; a reply of another type is then unexpected unless it is JSON. */
  stream: boolean;
}

type Mode = 'sse' | 'whole' | 'status' | 'unexpected';

/** Parts queued beyond this pause reading from the upstream until the consumer catches up. */
const HIGH_WATER = 256;
/** Of an error answer, only this much is kept (its message); the rest is not waited for. */
const MAX_ERROR_BODY = 64 * 1024;

const DONE: IteratorResult<ChatStreamPart> = { done: true, value: undefined };

interface Waiter {
  resolve(result: IteratorResult<ChatStreamPart>): void;
  reject(err: unknown): void;
}

/**
 * One chat request to the upstream, as the iterator of its parts. undici pushes network chunks into
 * this handler, which maps them to parts at once and hands them to whoever awaits `next()`: no
 * stream objects or generator chains between the socket and the consumer, because this path runs
 * for every token of every reply. Nothing is sent until the first `next()`.
 */
export class UpstreamCall implements AsyncIterableIterator<ChatStreamPart>, PartIterator, Dispatcher.DispatchHandler {
  private readonly parts: ChatStreamPart[] = [];
  private head = 0;
  private state: 'idle' | 'running' | 'ended' | 'failed' = 'idle';
  private failure: unknown = undefined;
  /** Pending `next()` calls, oldest first (a consumer may ask again before the last answer). */
  private readonly waiters: Waiter[] = [];
  private controller: Dispatcher.DispatchController | undefined = undefined;
  private mode: Mode | undefined = undefined;
  private status = 0;
  private contentType = '';
  private relay: SseRelay | undefined = undefined;
  private collected: Buffer[] = [];
  private collectedBytes = 0;
  private readonly meter: ReplyMeter;
  /** The connection of the one retry, after the request met a connection the upstream had closed. */
  private fresh: Dispatcher | undefined = undefined;
  private retried = false;

  constructor(
    private readonly target: CallTarget,
    private readonly body: string,
    /** The request's max_tokens: output well past it is cut (an upstream that ignores it). */
    private readonly maxTokens: number,
    private readonly signal: CancelSignal,
    /** Sent as the `traceparent` header when tracing is on. */
    private readonly traceparent?: string | undefined,
    /** Told when the upstream has taken the prompt (ChatRequest.onPrompt). */
    private readonly onPrompt?: ChatRequest['onPrompt'],
  ) {
    this.meter = new ReplyMeter(target.options, maxTokens);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ChatStreamPart>> {
    if (this.state === 'idle') this.start();
    if (this.signal.aborted) return Promise.reject(this.signal.reason);
    if (this.head < this.parts.length) return Promise.resolve({ done: false, value: this.take() });
    if (this.state === 'failed') return Promise.reject(this.failure);
    if (this.state === 'ended') return Promise.resolve(DONE);
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
    });
  }

  /** The consumer stopped early: close the upstream request so the server stops generating. */
  return(): Promise<IteratorResult<ChatStreamPart>> {
    if (this.state === 'running') {
      this.state = 'ended';
      this.controller?.abort(new Error('the consumer stopped reading'));
      this.cleanup();
    }
    this.parts.length = 0;
    this.head = 0;
    this.wake();
    return Promise.resolve(DONE);
  }

  // --- undici's side ---

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.state !== 'running') controller.abort(new Error('the request is no longer wanted'));
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.controller = controller;
    this.status = statusCode;
    const contentType = headers['content-type'];
    this.contentType = typeof contentType === 'string' ? contentType : '';
    if (statusCode < 200 || statusCode >= 300) this.mode = 'status';
    else if (this.contentType.includes('text/event-stream')) {
      this.mode = 'sse';
      this.relay = new SseRelay(this.target.options.generateToolCallIds, {
        maxEventChars: this.target.options.limits.maxEventBytes,
        maxTokens: this.maxTokens,
        maxOutputEvents: maxOutputEvents(this.maxTokens),
        splitThinkTags: this.target.options.thinkTags,
      });
    } else if (this.contentType.includes('json') || !this.target.stream) this.mode = 'whole';
    else this.mode = 'unexpected';
    // A reply under way: the server has the prompt and evaluates it (it counts it itself, in its usage).
    if (this.mode === 'sse' || this.mode === 'whole') this.onPrompt?.({});
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.state !== 'running') return;
    if (this.relay !== undefined) {
      const relay = this.relay;
      const before = this.parts.length;
      try {
        this.meter.streamed(chunk.length);
        relay.data(chunk, this.parts);
      } catch (err) {
        this.fail(this.streamFailure(err));
        controller.abort(new Error('the upstream stream is unusable'));
        return;
      }
      if (this.parts.length - this.head > HIGH_WATER) controller.pause();
      if (this.parts.length > before) this.wake();
      return;
    }
    this.collected.push(chunk);
    this.collectedBytes += chunk.length;
    if (this.mode === 'whole') {
      try {
        this.meter.whole(chunk.length);
      } catch (err) {
        this.fail(
          upstreamFailure(this.target.options, transportCause(this.target.options, err), { phase: 'body' }, err),
        );
        controller.abort(new Error('the upstream reply is too large'));
      }
    } else if (this.collectedBytes > MAX_ERROR_BODY) {
      // An error answer (or a body of an unexpected type) has said what it has to say by now.
      this.onResponseEnd();
      controller.abort(new Error('enough of the error answer was read'));
    }
  }

  onResponseEnd(): void {
    if (this.state !== 'running') return;
    try {
      this.finishBody();
      this.state = 'ended';
    } catch (err) {
      this.fail(err);
      return;
    }
    this.cleanup();
    this.wake();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.state !== 'running') return;
    if (this.signal.aborted) this.fail(this.signal.reason);
    else if (this.mode === undefined && !this.retried && failedOnStaleConnection(err)) {
      this.retried = true;
      // Nothing came back and the connection was one the upstream had closed while idle: the
      // request never reached it. Once more, on a connection of its own.
      this.controller = undefined;
      this.fresh = freshConnection(this.target.options, this.target.origin);
      this.send(this.fresh);
    } else if (this.mode === undefined) {
      const cause = transportCause(this.target.options, err);
      this.fail(
        upstreamFailure(
          this.target.options,
          isBound(err) ? cause : `cannot reach the upstream (${cause})`,
          { phase: 'request', target: this.target.path },
          err,
        ),
      );
    } else this.fail(this.streamFailure(err));
  }

  // --- internals ---

  private start(): void {
    if (this.signal.aborted) {
      this.state = 'failed';
      this.failure = this.signal.reason;
      return;
    }
    this.state = 'running';
    // The call itself is the listener (`handleEvent`): no closure per request on this hot path.
    this.signal.addEventListener('abort', this, { once: true });
    this.send(this.target.agent);
  }

  private send(dispatcher: Dispatcher): void {
    const { origin, path } = this.target;
    const headers =
      this.traceparent === undefined ? this.target.headers : { ...this.target.headers, traceparent: this.traceparent };
    dispatcher.dispatch({ origin, path, method: 'POST', headers, body: this.body }, this);
  }

  private take(): ChatStreamPart {
    const part = this.parts[this.head++]!;
    if (this.head === this.parts.length) {
      this.parts.length = 0;
      this.head = 0;
      if (this.controller?.paused && this.state === 'running') this.controller.resume();
    }
    return part;
  }

  private wake(): void {
    const waiters = this.waiters;
    while (waiters.length > 0) {
      if (this.head < this.parts.length) waiters.shift()!.resolve({ done: false, value: this.take() });
      else if (this.state === 'failed') waiters.shift()!.reject(this.failure);
      else if (this.state === 'ended') waiters.shift()!.resolve(DONE);
      else return;
    }
  }

  private fail(err: unknown): void {
    this.state = 'failed';
    this.failure = err;
    this.cleanup();
    this.wake();
  }

  /** The signal's abort listener. */
  handleEvent(): void {
    if (this.state !== 'running') return;
    const reason = this.signal.reason;
    this.controller?.abort(reason instanceof Error ? reason : new Error('the request was aborted'));
    // Parts still queued are dropped: an aborted reply ends now, not after its backlog.
    this.parts.length = 0;
    this.head = 0;
    this.fail(this.signal.reason);
  }

  private cleanup(): void {
    this.signal.removeEventListener('abort', this);
    this.collected = [];
    // Closes once its one request is done (or at once, if it was aborted).
    const fresh = this.fresh;
    this.fresh = undefined;
    if (fresh !== undefined) void fresh.close();
  }

  /** The body is complete: closing parts of a stream, or the parse of a body read whole. */
  private finishBody(): void {
    const options = this.target.options;
    if (this.relay !== undefined) {
      try {
        this.relay.end(this.parts);
      } catch (err) {
        throw this.streamFailure(err);
      }
      warnDropped(options, this.relay.mapper);
      return;
    }
    const collected = this.collected;
    let text = (collected.length === 1 ? collected[0]! : Buffer.concat(collected)).toString('utf8');
    if (this.mode !== 'whole') text = text.slice(0, MAX_ERROR_BODY);
    if (this.mode === 'status') throw statusError(options, this.status, text);
    if (this.mode === 'unexpected') {
      throw upstreamFailure(options, `unexpected content type ${this.contentType || '(none)'}`, {
        phase: 'headers',
        body: text.slice(0, 1_000),
      });
    }
    let mapper: ChunkMapper;
    try {
      mapper = mapWholeReply(text, options.generateToolCallIds, this.parts, options.thinkTags);
    } catch (err) {
      throw upstreamFailure(options, `unreadable reply (${describeCause(err)})`, { phase: 'body' }, err);
    }
    warnDropped(options, mapper);
    const finish = this.parts.at(-1);
    if (finish?.type === 'finish') {
      try {
        this.meter.completionTokens(finish.usage.completionTokens);
      } catch (err) {
        this.parts.length = 0;
        throw upstreamFailure(options, transportCause(options, err), { phase: 'body' }, err);
      }
    }
  }

  private streamFailure(err: unknown): ApiError {
    const produced = this.parts.length > 0 || this.relay?.mapper.sawOutput === true;
    const cause = transportCause(this.target.options, err);
    let what = `${produced ? 'the stream broke off' : 'the stream could not be read'} (${cause})`;
    if (isBound(err)) what = cause;
    else if (err instanceof IncompleteStreamError) what = err.message;
    const detail = err instanceof UpstreamReportedError ? err.detail : undefined;
    return upstreamFailure(this.target.options, what, { phase: 'stream', produced, detail }, err);
  }
}

function warnDropped(options: ResolvedOptions, mapper: ChunkMapper): void {
  if (mapper.droppedReasoning > 0) {
    options.logger?.warn(
      { upstream: options.label, pieces: mapper.droppedReasoning },
      'chat upstream sent reasoning after text; dropped, as the API puts reasoning first',
    );
  }
}
