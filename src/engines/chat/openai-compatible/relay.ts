import type { Dispatcher } from 'undici';
import { ApiError } from '../../../errors/api-error.js';
import type { ChatStreamPart } from '../types.js';
import { ChunkMapper, UpstreamReportedError } from './chunk-mapper.js';
import type { ResolvedOptions } from './options.js';
import { SseDecoder } from './sse-decoder.js';
import { describeCause, upstreamFailure } from './upstream-errors.js';
import type { WireChunk } from './wire.js';

function parseEvent(data: string, isError: boolean): WireChunk {
  const parsed: unknown = JSON.parse(data);
  if (isError) throw new UpstreamReportedError(parsed);
  return parsed as WireChunk;
}

function failure(options: ResolvedOptions, err: unknown, yielded: boolean): ApiError {
  if (err instanceof ApiError) return err;
  const what = yielded ? 'the stream broke off' : 'the stream could not be read';
  const detail = err instanceof UpstreamReportedError ? err.detail : undefined;
  return upstreamFailure(options, `${what} (${describeCause(err)})`, { phase: 'stream', yielded, detail }, err);
}

function warnDropped(options: ResolvedOptions, mapper: ChunkMapper): void {
  if (mapper.droppedReasoning > 0) {
    options.logger?.warn(
      { upstream: options.label, pieces: mapper.droppedReasoning },
      'chat upstream sent reasoning after text; dropped, as the API puts reasoning first',
    );
  }
}

/**
 * Relays an SSE body as parts, chunk by chunk: each network chunk's complete events are mapped and
 * yielded before the next chunk is read. After `[DONE]` the finish part goes out at once and the
 * rest of the body is drained, so that the keep-alive connection can serve the next request.
 */
export async function* relaySse(
  options: ResolvedOptions,
  body: AsyncIterable<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<ChatStreamPart> {
  const decoder = new SseDecoder();
  const mapper = new ChunkMapper(options.generateToolCallIds);
  const out: ChatStreamPart[] = [];
  let yielded = false;
  let done = false;
  let failed: unknown;
  try {
    for await (const chunk of body) {
      if (done) continue;
      decoder.feed(chunk);
      try {
        for (let data = decoder.next(); data !== undefined; data = decoder.next()) {
          if (data === '[DONE]') {
            done = true;
            mapper.finish(out);
            break;
          }
          mapper.chunk(parseEvent(data, decoder.isError), out);
        }
      } catch (err) {
        // The parts mapped before the bad event reached the client's side of the wire; relay them first.
        failed = err;
      }
      if (out.length > 0) yielded = true;
      for (let i = 0; i < out.length; i++) {
        // A chunk can hold many events: an abort must not wait for the rest of them.
        if (signal.aborted) throw signal.reason;
        yield out[i]!;
      }
      out.length = 0;
      if (failed !== undefined) throw failed;
    }
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw failure(options, err, yielded);
  }
  if (!done) {
    // Servers that end the body without `[DONE]` are fine once they have given a finish reason.
    if (!mapper.sawFinish) {
      throw upstreamFailure(options, 'the stream ended before the reply was complete', { phase: 'stream', yielded });
    }
    mapper.finish(out);
    yield* out;
  }
  warnDropped(options, mapper);
}

/** A non-stream reply (or an upstream that ignored `stream: true`), mapped to the same parts. */
export async function* relayWhole(
  options: ResolvedOptions,
  response: Dispatcher.ResponseData,
  signal: AbortSignal,
): AsyncGenerator<ChatStreamPart> {
  const out: ChatStreamPart[] = [];
  const mapper = new ChunkMapper(options.generateToolCallIds);
  try {
    const parsed = (await response.body.json()) as WireChunk;
    mapper.chunk(parsed, out, true);
    if (!Array.isArray(parsed.choices) || parsed.choices.length === 0) throw new UpstreamReportedError(parsed);
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw failure(options, err, false);
  }
  mapper.finish(out);
  warnDropped(options, mapper);
  yield* out;
}
