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
 * Turns engine parts into the stream chunks of decisions.md §3. Without `toolStream` a tool call
 * is sent whole, in one chunk, when it ends; with it every fragment repeats id, type and name.
 * Stateful per completion: it remembers open tool calls and whether reasoning is over.
 */
export class ChunkEncoder {
  private readonly calls = new Map<number, OpenCall>();

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

  private chunk(delta: ChunkDelta): ChatCompletionChunk {
    const { id, created, model } = this.identity;
    return { id, created, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta }] };
  }
}
