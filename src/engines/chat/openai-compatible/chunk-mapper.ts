import type { ChatStreamPart, ChatUsage, FinishReason } from '../types.js';
import { ThinkTagSplitter } from './think-tags.js';
import { ToolCallAssembler } from './tool-calls.js';
import type { WireChunk, WireDelta, WireUsage } from './wire.js';

const count = (value: number | null | undefined): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;

export function mapUsage(usage: WireUsage | null | undefined): ChatUsage {
  return {
    promptTokens: count(usage?.prompt_tokens),
    completionTokens: count(usage?.completion_tokens),
    cachedTokens: count(usage?.prompt_tokens_details?.cached_tokens),
    reasoningTokens: count(usage?.completion_tokens_details?.reasoning_tokens),
  };
}

export function mapFinishReason(reason: string, sawToolCalls: boolean): FinishReason {
  switch (reason) {
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'sensitive';
    default:
      // Some servers say `stop` after a tool call; the client must still be told to run the tools.
      return sawToolCalls ? 'tool_calls' : 'stop';
  }
}

/** Thrown when the upstream reports a failure inside a 200 stream or body. */
export class UpstreamReportedError extends Error {
  constructor(readonly detail: unknown) {
    super('upstream reported an error in its response body');
    this.name = 'UpstreamReportedError';
  }
}

/**
 * Maps upstream chunks (or one whole reply) of choice 0 to stream parts. Holds what spans chunks:
 * open tool calls, the finish reason (which arrives one chunk before the usage) and the usage.
 */
export class ChunkMapper {
  private readonly toolCalls: ToolCallAssembler;
  private finishReason: string | undefined = undefined;
  private usage: WireUsage | undefined = undefined;
  private textStarted = false;
  private reasoningSeen = false;
  /** Reasoning that came after text; dropped, because the API puts all reasoning first. */
  droppedReasoning = 0;

  /** Reasoning left in `content` as `<think>…</think>`, split out (deployments that think). */
  private readonly thinkTags: ThinkTagSplitter | undefined;

  constructor(generateToolCallIds: boolean, splitThinkTags = false) {
    this.toolCalls = new ToolCallAssembler(generateToolCallIds);
    this.thinkTags = splitThinkTags ? new ThinkTagSplitter() : undefined;
  }

  get sawFinish(): boolean {
    return this.finishReason !== undefined;
  }

  /** Whether any text, reasoning or tool call has come out (for telling a broken stream from an empty one). */
  get sawOutput(): boolean {
    return this.textStarted || this.reasoningSeen || this.toolCalls.count > 0;
  }

  /** Maps one parsed chunk; `whole` for a non-stream reply, whose choice carries `message`. */
  chunk(chunk: WireChunk, out: ChatStreamPart[], whole = false): void {
    if (chunk === null || typeof chunk !== 'object') throw new UpstreamReportedError(chunk);
    if (chunk.error !== undefined && chunk.error !== null) throw new UpstreamReportedError(chunk.error);
    if (chunk.object === 'error') throw new UpstreamReportedError(chunk.message);
    if (chunk.usage) this.usage = chunk.usage;
    const choices = chunk.choices;
    if (!choices) return;
    for (const choice of choices) {
      if (choice.index !== undefined && choice.index !== 0) continue;
      const delta = whole ? choice.message : choice.delta;
      if (delta) this.delta(delta, out, whole);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
  }

  /** The closing parts: open tool calls ended, then the finish part. */
  finish(out: ChatStreamPart[]): void {
    if (this.thinkTags) this.split(this.thinkTags.flush(), out);
    const sawToolCalls = this.toolCalls.count > 0;
    this.toolCalls.end(out);
    const reason = mapFinishReason(this.finishReason ?? 'stop', sawToolCalls);
    out.push({ type: 'finish', reason, usage: mapUsage(this.usage) });
  }

  /** Maps the text of a chunk that carries nothing else (the relay's ContentTemplate reads those). */
  text(text: string, out: ChatStreamPart[]): void {
    if (text === '') return;
    if (this.thinkTags) {
      this.split(this.thinkTags.push(text), out);
      return;
    }
    this.textStarted = true;
    out.push({ type: 'text-delta', text });
  }

  private split([reasoning, text]: [string, string], out: ChatStreamPart[]): void {
    if (reasoning !== '') this.reasoning(reasoning, out);
    if (text !== '') {
      this.textStarted = true;
      out.push({ type: 'text-delta', text });
    }
  }

  private reasoning(text: string, out: ChatStreamPart[]): void {
    if (this.textStarted) this.droppedReasoning++;
    else {
      this.reasoningSeen = true;
      out.push({ type: 'reasoning-delta', text });
    }
  }

  private delta(delta: WireDelta, out: ChatStreamPart[], whole: boolean): void {
    const reasoning = delta.reasoning_content || delta.reasoning;
    if (reasoning) this.reasoning(reasoning, out);
    const text = delta.content;
    if (typeof text === 'string') this.text(text, out);
    const calls = delta.tool_calls;
    if (calls) {
      for (let i = 0; i < calls.length; i++) {
        const call = calls[i]!;
        // A whole reply's calls usually lack `index`: their position is their index.
        this.toolCalls.push(whole && call.index === undefined ? { ...call, index: i } : call, i, out);
      }
    }
  }
}
