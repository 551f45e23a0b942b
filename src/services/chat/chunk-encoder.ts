import type { ChatStreamPart, ChatUsage, FinishReason } from '../../engines/chat/types.js';
import { wireUsage } from './usage.js';
import type { ChatCompletionChunk, ChunkDelta, CompletionIdentity, WireToolCall } from './wire-types.js';

interface OpenCall {
  id: string;
  name: string;
  arguments: string;
}

const EMPTY_USAGE: ChatUsage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };

/**
 * Turns engine parts into the stream chunks of docs/wire.md, "Chat completions". Without `toolStream` a tool call
 * is sent whole, in one chunk, when it ends; with it every fragment repeats id, type and name.
 * Stateful per completion: it remembers open tool calls and whether reasoning is over.
 */
export class ChunkEncoder {
  private readonly calls = new Map<number, OpenCall>();
  /** `{"id":…,"created":…,"object":"chat.completion.chunk","model":…,"choices":[{"index":0,"delta":` */
  private prefix: string | undefined = undefined;

  constructor(
    private readonly identity: CompletionIdentity,
    private readonly toolStream: boolean,
  ) {}

  /** The chunk for one part, or undefined when the part produces none yet. */
  encode(part: ChatStreamPart): ChatCompletionChunk | undefined {
    switch (part.type) {
      case 'reasoning-delta':
        return part.text ? this.chunk({ role: 'assistant', reasoning_content: part.text }) : undefined;
      case 'text-delta':
        return part.text ? this.chunk({ role: 'assistant', content: part.text }) : undefined;
      case 'tool-call-start':
        this.calls.set(part.index, { id: part.id, name: part.name, arguments: '' });
        return this.toolStream ? this.chunk({ tool_calls: [this.fragment(part.index, '')] }) : undefined;
      case 'tool-call-delta': {
        const call = this.calls.get(part.index);
        if (!call) return undefined;
        call.arguments += part.argumentsDelta;
        return this.toolStream && part.argumentsDelta
          ? this.chunk({ tool_calls: [this.fragment(part.index, part.argumentsDelta)] })
          : undefined;
      }
      case 'tool-call-end':
        return this.toolStream ? undefined : this.chunk({ tool_calls: [this.fragment(part.index, undefined)] });
      case 'finish':
        return this.finish(part.reason, part.usage);
    }
  }

  /**
   * The JSON text of `encode(part)`, byte for byte what `JSON.stringify` makes of it. Text and
   * reasoning pieces, nearly every chunk of a stream, are written around the constant head of the
   * chunk, which is built once per completion: only the piece itself is serialised.
   */
  encodeJson(part: ChatStreamPart): string | undefined {
    if (part.type === 'text-delta') {
      return part.text ? `${this.head()}{"role":"assistant","content":${JSON.stringify(part.text)}}}]}` : undefined;
    }
    if (part.type === 'reasoning-delta') {
      return part.text
        ? `${this.head()}{"role":"assistant","reasoning_content":${JSON.stringify(part.text)}}}]}`
        : undefined;
    }
    if (part.type === 'finish') return this.finishJson(part.reason, part.usage);
    const chunk = this.encode(part);
    return chunk === undefined ? undefined : JSON.stringify(chunk);
  }

  /** The JSON text of `finish(reason, usage)`, written around the same head as the text pieces. */
  finishJson(reason: FinishReason, usage: ChatUsage = EMPTY_USAGE): string {
    return `${this.head()}{"role":"assistant","content":""},"finish_reason":${JSON.stringify(reason)}}],"usage":${JSON.stringify(wireUsage(usage))}}`;
  }

  /** The last chunk: finish reason, an empty assistant delta and the usage. */
  finish(reason: FinishReason, usage: ChatUsage = EMPTY_USAGE): ChatCompletionChunk {
    const chunk = this.chunk({ role: 'assistant', content: '' });
    chunk.choices[0]!.finish_reason = reason;
    chunk.usage = wireUsage(usage);
    return chunk;
  }

  private fragment(index: number, piece: string | undefined): WireToolCall {
    const call = this.calls.get(index)!;
    return { index, id: call.id, type: 'function', function: { name: call.name, arguments: piece ?? call.arguments } };
  }

  private head(): string {
    if (this.prefix === undefined) {
      const { id, created, model } = this.identity;
      // The key order of chunk() below.
      this.prefix = `{"id":${JSON.stringify(id)},"created":${JSON.stringify(created)},"object":"chat.completion.chunk","model":${JSON.stringify(model)},"choices":[{"index":0,"delta":`;
    }
    return this.prefix;
  }

  private chunk(delta: ChunkDelta): ChatCompletionChunk {
    const { id, created, model } = this.identity;
    return { id, created, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta }] };
  }
}
