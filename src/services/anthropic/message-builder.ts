import { createHash } from 'node:crypto';
import type { ContentBlock, StopReason } from '../../api/anthropic-reply.js';
import type { ChatStreamPart, FinishReason } from '../../engines/chat/types.js';
import { randomHex } from '../../ids/random-hex.js';
import { StopScanner } from './stop-scanner.js';

/** One event of a block, as Anthropic's stream carries it (without the SSE framing). */
export type BlockEvent =
  | { type: 'content_block_start'; index: number; content_block: ContentBlock }
  | {
      type: 'content_block_delta';
      index: number;
      delta:
        | { type: 'text_delta'; text: string }
        | { type: 'thinking_delta'; thinking: string }
        | { type: 'signature_delta'; signature: string }
        | { type: 'input_json_delta'; partial_json: string };
    }
  | { type: 'content_block_stop'; index: number };

type Open =
  | { kind: 'text'; index: number }
  | { kind: 'thinking'; index: number }
  | { kind: 'tool'; index: number; engineIndex: number };

/**
 * A thinking block's `signature`: a digest of its text. Clients send it back with the block; the
 * server reads the thinking itself and never needs to trust it.
 */
const signatureOf = (thinking: string) => createHash('sha256').update(thinking).digest('base64');

/**
 * Turns the chat engine's parts into Anthropic content blocks, in the order produced (thinking,
 * then text and tool calls), and into the block events of a stream. A stop sequence found in the
 * text ends the reply (`stopped`): the caller stops the engine.
 */
export class MessageBuilder {
  readonly content: ContentBlock[] = [];
  private open: Open | undefined = undefined;
  private readonly scanner: StopScanner;
  /** Arguments' JSON text of each tool block, by block index. */
  private readonly args = new Map<number, string>();

  constructor(stopSequences: readonly string[]) {
    this.scanner = new StopScanner(stopSequences);
  }

  /** The stop sequence that ended the reply, once one has. */
  get stopSequence(): string | undefined {
    return this.scanner.matched;
  }

  get stopped(): boolean {
    return this.scanner.matched !== undefined;
  }

  /** Folds one part other than `finish`; its events go into `events`. */
  push(part: Exclude<ChatStreamPart, { type: 'finish' }>, events: BlockEvent[]): void {
    if (this.stopped) return;
    switch (part.type) {
      case 'reasoning-delta':
        if (part.text === '') return;
        if (this.open?.kind !== 'thinking') this.start({ type: 'thinking', thinking: '', signature: '' }, events);
        this.appendThinking(part.text, events);
        return;
      case 'text-delta': {
        const text = this.scanner.push(part.text);
        if (text !== '') this.appendText(text, events);
        if (this.stopped) this.closeOpen(events);
        return;
      }
      case 'tool-call-start':
        this.flushText(events);
        this.start({ type: 'tool_use', id: `toolu_${randomHex(12)}`, name: part.name, input: {} }, events, part.index);
        return;
      case 'tool-call-delta': {
        const open = this.open;
        if (open?.kind !== 'tool' || open.engineIndex !== part.index || part.argumentsDelta === '') return;
        this.args.set(open.index, (this.args.get(open.index) ?? '') + part.argumentsDelta);
        events.push({
          type: 'content_block_delta',
          index: open.index,
          delta: { type: 'input_json_delta', partial_json: part.argumentsDelta },
        });
        return;
      }
      case 'tool-call-end':
        if (this.open?.kind === 'tool' && this.open.engineIndex === part.index) this.closeOpen(events);
        return;
    }
  }

  /** The reply is over: held-back text goes out and the open block closes. */
  close(events: BlockEvent[]): void {
    this.flushText(events);
    this.closeOpen(events);
  }

  /** Anthropic's stop reason for the engine's finish (a stop sequence found here wins). */
  stopReason(reason: FinishReason | undefined): StopReason {
    if (this.stopped) return 'stop_sequence';
    switch (reason) {
      case 'length':
        return 'max_tokens';
      case 'tool_calls':
        return 'tool_use';
      case 'sensitive':
        return 'refusal';
      case 'model_context_window_exceeded':
        return 'model_context_window_exceeded';
      default:
        return this.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
    }
  }

  private flushText(events: BlockEvent[]): void {
    const rest = this.scanner.flush();
    if (rest !== '') this.appendText(rest, events);
  }

  private appendText(text: string, events: BlockEvent[]): void {
    if (this.open?.kind !== 'text') this.start({ type: 'text', text: '' }, events);
    const block = this.content[this.open!.index] as Extract<ContentBlock, { type: 'text' }>;
    block.text += text;
    events.push({ type: 'content_block_delta', index: this.open!.index, delta: { type: 'text_delta', text } });
  }

  private appendThinking(text: string, events: BlockEvent[]): void {
    const block = this.content[this.open!.index] as Extract<ContentBlock, { type: 'thinking' }>;
    block.thinking += text;
    events.push({
      type: 'content_block_delta',
      index: this.open!.index,
      delta: { type: 'thinking_delta', thinking: text },
    });
  }

  private start(block: ContentBlock, events: BlockEvent[], engineIndex = -1): void {
    this.closeOpen(events);
    const index = this.content.length;
    this.content.push(block);
    this.open =
      block.type === 'tool_use'
        ? { kind: 'tool', index, engineIndex }
        : { kind: block.type === 'text' ? 'text' : 'thinking', index };
    // The start event carries the block empty, as Anthropic's does; the deltas fill it.
    events.push({ type: 'content_block_start', index, content_block: { ...block } });
  }

  private closeOpen(events: BlockEvent[]): void {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    const block = this.content[open.index]!;
    if (block.type === 'thinking') {
      block.signature = signatureOf(block.thinking);
      events.push({
        type: 'content_block_delta',
        index: open.index,
        delta: { type: 'signature_delta', signature: block.signature },
      });
    } else if (block.type === 'tool_use') {
      block.input = parseInput(this.args.get(open.index) ?? '');
    }
    events.push({ type: 'content_block_stop', index: open.index });
  }
}

/** A tool call's arguments as the block's `input`: an object, `{}` when the model gave none or no object. */
function parseInput(json: string): Record<string, unknown> {
  if (json.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
