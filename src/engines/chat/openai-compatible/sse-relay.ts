import type { ChatStreamPart } from '../types.js';
import { ChunkMapper, UpstreamReportedError } from './chunk-mapper.js';
import { ContentTemplate, isPlainTextChunk } from './content-template.js';
import { ReplyBoundError } from './reply-bounds.js';
import { SseDecoder } from './sse-decoder.js';
import type { WireChunk } from './wire.js';

/**
 * The push side of a streamed reply: network chunks in, parts out, with no I/O of its own. Each
 * chunk's complete events are mapped at once; after `[DONE]` the finish part is out and the rest
 * of the body is ignored (the connection still reads it, so it can be reused).
 */
export class SseRelay {
  private readonly decoder: SseDecoder;
  readonly mapper: ChunkMapper;
  done = false;
  /**
   * Events that brought output (text, reasoning, tool-call pieces). A server sends at most a couple
   * per generated token, so this bounds the tokens generated without a tokenizer.
   */
  outputEvents = 0;
  /** The shape of the stream's text chunks, once one has been parsed. */
  private template: ContentTemplate | undefined = undefined;
  private cutsLeft = 3;

  constructor(
    generateToolCallIds: boolean,
    bounds: { maxEventChars?: number; maxTokens?: number; maxOutputEvents?: number; splitThinkTags?: boolean } = {},
  ) {
    this.mapper = new ChunkMapper(generateToolCallIds, bounds.splitThinkTags);
    this.decoder = new SseDecoder(bounds.maxEventChars);
    this.maxTokens = bounds.maxTokens ?? 0;
    this.maxOutputEvents = bounds.maxOutputEvents ?? Number.POSITIVE_INFINITY;
  }

  private readonly maxTokens: number;
  private readonly maxOutputEvents: number;

  /** Maps a chunk's events into `out`; throws on a bad or error event, after the parts before it. */
  data(chunk: Uint8Array, out: ChatStreamPart[]): void {
    if (this.done) return;
    const decoder = this.decoder;
    decoder.feed(chunk);
    for (let data = decoder.next(); data !== undefined; data = decoder.next()) {
      const before = out.length;
      this.event(data, out);
      if (this.done) return;
      if (out.length > before && ++this.outputEvents > this.maxOutputEvents) {
        // Cut at the event past the bound: what came before stands, nothing after it is relayed.
        out.length = before;
        throw new ReplyBoundError(`the upstream went on past max_tokens (${this.maxTokens})`);
      }
    }
  }

  private event(data: string, out: ChatStreamPart[]): void {
    const decoder = this.decoder;
    if (data === '[DONE]') {
      this.done = true;
      this.mapper.finish(out);
      return;
    }
    if (this.template && !decoder.isError) {
      const text = this.template.text(data);
      if (text !== undefined) {
        this.mapper.text(text, out);
        return;
      }
    }
    const parsed: unknown = JSON.parse(data);
    if (decoder.isError) throw new UpstreamReportedError(parsed);
    this.mapper.chunk(parsed as WireChunk, out);
    // A text chunk the template did not read: cut the template from it (a server may write its
    // first text chunk apart, with the role), a few times at most.
    if (this.cutsLeft > 0 && isPlainTextChunk(parsed as WireChunk)) {
      this.cutsLeft--;
      this.template = ContentTemplate.of(data, parsed as WireChunk) ?? this.template;
    }
  }

  /** The body ended: servers that omit `[DONE]` are fine once they have given a finish reason. */
  end(out: ChatStreamPart[]): void {
    if (this.done) return;
    if (!this.mapper.sawFinish) throw new IncompleteStreamError();
    this.done = true;
    this.mapper.finish(out);
  }
}

export class IncompleteStreamError extends Error {
  constructor() {
    super('the stream ended before the reply was complete');
    this.name = 'IncompleteStreamError';
  }
}

/** A whole (non-stream) reply body mapped to the same parts; throws on an error body. */
export function mapWholeReply(
  text: string,
  generateToolCallIds: boolean,
  out: ChatStreamPart[],
  splitThinkTags = false,
): ChunkMapper {
  const mapper = new ChunkMapper(generateToolCallIds, splitThinkTags);
  const parsed = JSON.parse(text) as WireChunk;
  mapper.chunk(parsed, out, true);
  if (!Array.isArray(parsed.choices) || parsed.choices.length === 0) throw new UpstreamReportedError(parsed);
  mapper.finish(out);
  return mapper;
}
