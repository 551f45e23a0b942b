import type { OutputItem, ResponseStreamEvent } from '../../api/responses-reply.js';
import { randomHex } from '../../ids/random-hex.js';
import { CUSTOM_TOOL_ARGUMENT } from './input-items.js';
import type { ResponsePart } from './responses-search.js';
import type { ClientTools } from './tool-names.js';

/** An event of the stream before its `sequence_number` is given (the stream numbers them as they go out). */
export type ItemEvent = DistributiveOmit<ResponseStreamEvent, 'sequence_number'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

type Message = Extract<OutputItem, { type: 'message' }>;
type Reasoning = Extract<OutputItem, { type: 'reasoning' }>;
type FunctionCall = Extract<OutputItem, { type: 'function_call' }>;
type CustomCall = Extract<OutputItem, { type: 'custom_tool_call' }>;

interface OpenCall {
  item: FunctionCall | CustomCall;
  outputIndex: number;
}

const itemId = (prefix: string) => `${prefix}_${randomHex(12)}`;

/** A copy of an item as it stands: an event must not change when the item grows later. */
const snapshot = <T extends OutputItem>(item: T): T => structuredClone(item);

/**
 * Turns the chat engine's parts into the Responses API's output items, in the order produced
 * (reasoning, then the message, then function calls; a kind that comes back later opens a new
 * item), and into the stream events that build them (docs/wire.md, "Responses"). The non-stream
 * reply is the same items with the events dropped. Tool-call arguments are kept whole: every
 * delta goes into the item and its event, and the `.done` events carry the joined text.
 */
export class OutputBuilder {
  readonly output: OutputItem[] = [];
  private message: { item: Message; outputIndex: number } | undefined = undefined;
  private reasoning: { item: Reasoning; outputIndex: number } | undefined = undefined;
  private readonly calls = new Map<number, OpenCall>();

  constructor(
    /** The tools by the name the model calls them: custom ones' calls become `custom_tool_call` items. */
    private readonly tools: ClientTools,
    /** The thought goes in the reasoning item's `summary` (asked for) or its `content`. */
    private readonly summary: boolean,
  ) {}

  /** The events for one part (none for a finish: the caller closes the items with `close`). */
  push(part: ResponsePart, events: ItemEvent[]): void {
    switch (part.type) {
      case 'item-done':
        this.addDone(part.item, events);
        break;
      case 'reasoning-delta':
        if (part.text !== '') this.reason(part.text, events);
        break;
      case 'text-delta':
        if (part.text !== '') this.text(part.text, events);
        break;
      case 'tool-call-start':
        this.startCall(part.index, part.id, part.name, events);
        break;
      case 'tool-call-delta':
        this.callDelta(part.index, part.argumentsDelta, events);
        break;
      case 'tool-call-end':
        this.endCall(part.index, 'completed', events);
        break;
      case 'finish':
        break;
    }
  }

  /**
   * Adds an item that is whole from the start (a web search that already ran). What the model said
   * before it is over: what it says after opens items of its own.
   */
  addDone(item: OutputItem, events: ItemEvent[]): void {
    this.closeReasoning('completed', events);
    this.closeMessage('completed', events);
    const outputIndex = this.output.length;
    this.output.push(item);
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: snapshot(item) });
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item: snapshot(item) });
  }

  /** Ends every open item: `completed`, or `incomplete` when the reply was cut short. */
  close(status: 'completed' | 'incomplete', events: ItemEvent[]): void {
    this.closeReasoning(status, events);
    this.closeMessage(status, events);
    for (const index of [...this.calls.keys()]) this.endCall(index, status, events);
  }

  /** Whether any function or custom tool call was made. */
  get calledTools(): boolean {
    return this.output.some((item) => item.type === 'function_call' || item.type === 'custom_tool_call');
  }

  private reason(text: string, events: ItemEvent[]): void {
    this.closeMessage('completed', events);
    let open = this.reasoning;
    if (open === undefined) {
      const item: Reasoning = { id: itemId('rs'), type: 'reasoning', status: 'in_progress', summary: [] };
      if (!this.summary) item.content = [];
      open = { item, outputIndex: this.output.length };
      this.reasoning = open;
      this.output.push(item);
      events.push({ type: 'response.output_item.added', output_index: open.outputIndex, item: snapshot(item) });
      const at = { item_id: item.id, output_index: open.outputIndex };
      if (this.summary) {
        item.summary.push({ type: 'summary_text', text: '' });
        events.push({
          type: 'response.reasoning_summary_part.added',
          ...at,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        });
      } else {
        item.content!.push({ type: 'reasoning_text', text: '' });
        events.push({
          type: 'response.content_part.added',
          ...at,
          content_index: 0,
          part: { type: 'reasoning_text', text: '' },
        });
      }
    }
    const at = { item_id: open.item.id, output_index: open.outputIndex };
    if (this.summary) {
      open.item.summary[0]!.text += text;
      events.push({ type: 'response.reasoning_summary_text.delta', ...at, summary_index: 0, delta: text });
    } else {
      open.item.content![0]!.text += text;
      events.push({ type: 'response.reasoning_text.delta', ...at, content_index: 0, delta: text });
    }
  }

  private closeReasoning(status: 'completed' | 'incomplete', events: ItemEvent[]): void {
    const open = this.reasoning;
    if (open === undefined) return;
    this.reasoning = undefined;
    const { item, outputIndex } = open;
    const at = { item_id: item.id, output_index: outputIndex };
    if (this.summary) {
      const part = item.summary[0]!;
      events.push({ type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text: part.text });
      events.push({ type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part: { ...part } });
    } else {
      const part = item.content![0]!;
      events.push({ type: 'response.reasoning_text.done', ...at, content_index: 0, text: part.text });
      events.push({ type: 'response.content_part.done', ...at, content_index: 0, part: { ...part } });
    }
    item.status = status;
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item: snapshot(item) });
  }

  private text(text: string, events: ItemEvent[]): void {
    this.closeReasoning('completed', events);
    let open = this.message;
    if (open === undefined) {
      const item: Message = {
        id: itemId('msg'),
        type: 'message',
        status: 'in_progress',
        role: 'assistant',
        content: [],
      };
      open = { item, outputIndex: this.output.length };
      this.message = open;
      this.output.push(item);
      events.push({ type: 'response.output_item.added', output_index: open.outputIndex, item: snapshot(item) });
      item.content.push({ type: 'output_text', annotations: [], logprobs: [], text: '' });
      events.push({
        type: 'response.content_part.added',
        item_id: item.id,
        output_index: open.outputIndex,
        content_index: 0,
        part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
      });
    }
    open.item.content[0]!.text += text;
    events.push({
      type: 'response.output_text.delta',
      item_id: open.item.id,
      output_index: open.outputIndex,
      content_index: 0,
      delta: text,
      logprobs: [],
    });
  }

  private closeMessage(status: 'completed' | 'incomplete', events: ItemEvent[]): void {
    const open = this.message;
    if (open === undefined) return;
    this.message = undefined;
    const { item, outputIndex } = open;
    const part = item.content[0]!;
    const at = { item_id: item.id, output_index: outputIndex, content_index: 0 };
    events.push({ type: 'response.output_text.done', ...at, text: part.text, logprobs: [] });
    events.push({ type: 'response.content_part.done', ...at, part: { ...part, annotations: [], logprobs: [] } });
    item.status = status;
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item: snapshot(item) });
  }

  private startCall(index: number, callId: string, name: string, events: ItemEvent[]): void {
    this.closeReasoning('completed', events);
    this.closeMessage('completed', events);
    const outputIndex = this.output.length;
    // A name the request did not offer (a model that made one up) goes back as the model wrote it.
    const tool = this.tools.get(name) ?? { name, custom: false };
    const namespace = tool.namespace === undefined ? {} : { namespace: tool.namespace };
    const item: FunctionCall | CustomCall = tool.custom
      ? {
          id: itemId('ctc'),
          type: 'custom_tool_call',
          status: 'in_progress',
          call_id: callId,
          name: tool.name,
          ...namespace,
          input: '',
        }
      : {
          id: itemId('fc'),
          type: 'function_call',
          status: 'in_progress',
          arguments: '',
          call_id: callId,
          name: tool.name,
          ...namespace,
        };
    this.calls.set(index, { item, outputIndex });
    this.output.push(item);
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: snapshot(item) });
  }

  private callDelta(index: number, delta: string, events: ItemEvent[]): void {
    const open = this.calls.get(index);
    if (open === undefined || delta === '') return;
    const { item, outputIndex } = open;
    if (item.type === 'function_call') {
      item.arguments += delta;
      events.push({
        type: 'response.function_call_arguments.delta',
        item_id: item.id,
        output_index: outputIndex,
        delta,
      });
    } else {
      // The free-form input is one JSON string argument: it is known once the call is whole.
      item.input += delta;
    }
  }

  private endCall(index: number, status: 'completed' | 'incomplete', events: ItemEvent[]): void {
    const open = this.calls.get(index);
    if (open === undefined) return;
    this.calls.delete(index);
    const { item, outputIndex } = open;
    const at = { item_id: item.id, output_index: outputIndex };
    if (item.type === 'function_call') {
      events.push({ type: 'response.function_call_arguments.done', ...at, name: item.name, arguments: item.arguments });
    } else {
      item.input = customInput(item.input);
      if (item.input !== '') events.push({ type: 'response.custom_tool_call_input.delta', ...at, delta: item.input });
      events.push({ type: 'response.custom_tool_call_input.done', ...at, input: item.input });
    }
    item.status = status;
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item: snapshot(item) });
  }
}

/** The free-form text of a custom tool call, from the arguments the model wrote for it. */
function customInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const value = (parsed as Record<string, unknown>)[CUSTOM_TOOL_ARGUMENT];
      if (typeof value === 'string') return value;
    }
  } catch {
    // Arguments that are not the expected object (a model that wrote raw text): passed on as written.
  }
  return args;
}
