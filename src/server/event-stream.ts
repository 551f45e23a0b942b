import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { EventSource } from '../services/event-source.js';
import { openStreams } from './metrics/open-streams.js';

const HEADERS = {
  'content-type': 'text/event-stream;charset=UTF-8',
  'cache-control': 'no-cache',
  // No `connection` header: Node's own answers the client's (keep-alive, or close when asked).
  // Proxies such as nginx buffer responses unless told not to, which would hold every chunk back.
  'x-accel-buffering': 'no',
};

/** Text queued beyond this is written at once rather than at the end of the turn. */
const FLUSH_AT = 16 * 1024;

/**
 * Writes events to the response, coalescing those produced in one turn of the event loop into one
 * socket write: an upstream often delivers several chunks in one network read, and writing each
 * alone costs a syscall apiece, the largest part of the gateway's CPU per request. The turn's text
 * is joined here and handed to the response as one chunk: one chunked-encoding frame and one
 * buffer for the socket, where a corked write per event made three buffers per event.
 */
class CoalescingWriter {
  private pending = '';
  private flush: NodeJS.Immediate | undefined = undefined;

  constructor(private readonly res: ServerResponse) {}

  /** False when the socket's buffer is full: wait for `drained()` before writing more. */
  write(text: string): boolean {
    this.pending += text;
    if (this.pending.length >= FLUSH_AT) this.send();
    else this.flush ??= setImmediate(flushLater, this);
    return !this.res.writableNeedDrain;
  }

  /** Resolves true once the socket takes more, false when it has not for `stallMs` (the client stopped reading). */
  drained(stallMs: number): Promise<boolean> {
    this.send();
    if (!this.res.writableNeedDrain) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => settle(true);
      const settle = (ok: boolean) => {
        clearTimeout(timer);
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve(ok);
      };
      const timer = setTimeout(settle, stallMs, false);
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  /** The last text and the end of the chunked body go out in the same write as what is queued. */
  end(text?: string): void {
    const last = text === undefined ? this.pending : this.pending + text;
    this.cancel();
    if (this.res.writableEnded) return;
    // A response whose client has gone takes no more text, only its end.
    if (last === '' || this.res.destroyed) this.res.end();
    else this.res.end(last);
  }

  /** What is queued waits for `end()`, to go out with the last text in one write. */
  hold(): void {
    if (this.flush === undefined) return;
    clearImmediate(this.flush);
    this.flush = undefined;
  }

  /** The turn is over: what it queued goes out. */
  flushed(): void {
    this.flush = undefined;
    this.send();
  }

  private send(): void {
    const text = this.pending;
    this.cancel();
    if (text !== '' && !this.res.writableEnded && !this.res.destroyed) this.res.write(text);
  }

  private cancel(): void {
    this.pending = '';
    if (this.flush === undefined) return;
    clearImmediate(this.flush);
    this.flush = undefined;
  }
}

// A module function and an argument rather than a closure per stream: under tsx (the benchmarks,
// the tests) every named closure also costs a defineProperty of its name.
function flushLater(writer: CoalescingWriter): void {
  writer.flushed();
}

/** `server.stream_stall_seconds`, for apps that do not set it (tests that build a bare Fastify). */
const DEFAULT_STALL_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** How long a stream may wait for its client to read before it is closed (`server.stream_stall_seconds`). */
    streamStallMs?: number;
  }
}

/**
 * How a stream's events go on the wire. By default (chat, agents) each event is `data: <json>` and
 * a blank line, and `data: [DONE]` ends the stream. A wire with named events (the Responses API)
 * frames its events itself and ends with its own last event, made once the others are out.
 */
export interface EventFraming {
  /** The wire text of one event, as the source yields it. */
  frame(event: string): string;
  /** The stream's last text: sent once its usage record is durable. */
  last(): string;
}

const DATA_FRAMING: EventFraming = {
  frame: (json) => `data: ${json}\n\n`,
  last: () => 'data: [DONE]\n\n',
};

/**
 * Sends `events`, each the JSON text of one event, as server-sent events: each one `data: <json>`
 * and a blank line, then
 * `data: [DONE]` (or as `framing` says). The first event is awaited before the 200 status is written, so a failure that
 * comes first is still answered as an ordinary JSON error. Honours backpressure; stops pulling
 * events when the client goes away, or when it has not read for `server.stream_stall_seconds`.
 *
 * Once the events are all made, the request's usage record (what its services noted in its usage
 * context) is made durable (`request.commitUsage`) before `data: [DONE]` is written: a client that
 * holds the whole stream holds a reply whose usage is safe. If it cannot be made durable the stream
 * is cut instead (the client sees no `[DONE]`).
 */
export async function sendEventStream(
  reply: FastifyReply,
  events: EventSource,
  framing: EventFraming = DATA_FRAMING,
): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  const first = await iterator.next();
  reply.hijack();
  reply.raw.writeHead(200, HEADERS);
  const out = new CoalescingWriter(reply.raw);
  let next = first;
  openStreams.count++;
  try {
    while (!next.done) {
      if (reply.raw.destroyed) return;
      if (
        !out.write(framing.frame(next.value)) &&
        !(await out.drained(reply.server.streamStallMs ?? DEFAULT_STALL_MS))
      ) {
        // The client has stopped reading: close the stream, which cancels its work (track-request.ts),
        // with a reset, so the kernel drops what it still holds for the client rather than keeping it.
        const socket = reply.raw.socket;
        if (socket !== null && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
        reply.raw.destroy();
        return;
      }
      next = await iterator.next();
    }
    if (reply.raw.destroyed) return;
    const durable = reply.request.commitUsage?.(200);
    if (durable !== undefined) {
      // The last events go out with [DONE], in one write, once the record is safe.
      out.hold();
      try {
        await durable;
      } catch (err) {
        reply.request.log.error({ err }, 'usage record not durable: stream cut before [DONE]');
        reply.raw.destroy();
        return;
      }
    }
    out.end(framing.last());
  } finally {
    openStreams.count--;
    if (!next.done) await iterator.return?.();
    out.end();
  }
}
