import type { ChatEngine, ChatMessage, ChatRequest, FinishReason } from '../../engines/chat/types.js';
import { type CancelSignal, throwIfCancelled } from '../../util/cancel-signal.js';
import { priceGeneration } from '../billing/priced-generation.js';
import type { CallContext } from '../call-context.js';
import { meterGeneration } from '../chat/metered-parts.js';

export interface CallResult {
  text: string;
  reasoning: string;
  finishReason: FinishReason;
}

export interface AgentUsage {
  promptTokens: number;
  completionTokens: number;
  totalCalls: number;
}

/**
 * The agent's one way to the model: each `call` is one chat-engine generation, counted in
 * `usage.totalCalls` with its tokens, whether or not its text ends up in the answer. The signal is
 * the client's: a client that goes away stops the generation under way and every later call.
 */
export class ModelCaller {
  readonly usage: AgentUsage = { promptTokens: 0, completionTokens: 0, totalCalls: 0 };
  /** How the latest call ended: the one whose text a piece's translation is. */
  lastFinish: FinishReason = 'stop';

  private readonly signal: CancelSignal;

  /**
   * `context`: the client's cancellation, whose calls these are (so the engine serves tenants in
   * turn), and the request's usage, where every call's tokens go however it ends.
   */
  constructor(
    readonly engine: ChatEngine,
    /** The model code the calls are made (and priced) under. */
    private readonly code: string,
    private readonly context: CallContext,
    private readonly temperature: number,
  ) {
    this.signal = context.signal;
  }

  get thinking(): boolean {
    return this.engine.capabilities.thinking;
  }

  /** `onText` receives the reply's text as it is generated, before any cleaning. */
  async call(
    messages: ChatMessage[],
    options: { thinking?: boolean; onText?: ((delta: string) => void) | undefined } = {},
  ): Promise<CallResult> {
    throwIfCancelled(this.signal);
    const request: ChatRequest = {
      messages,
      tools: [],
      sampling: { temperature: this.temperature, topP: 0.95, greedy: false },
      // The engine caps this at the room its context leaves after the prompt.
      maxTokens: this.engine.capabilities.maxOutput,
      stop: [],
      responseFormat: 'text',
      thinking: options.thinking === true && this.thinking,
      tenant: this.context.tenant,
    };
    this.usage.totalCalls++;
    let text = '';
    let reasoning = '';
    let finishReason: FinishReason = 'network_error';
    // Priced: each call reserves its worst case before it starts; the agent costs the sum of its calls.
    const usage = this.context.usage;
    const sink = usage.meter === undefined ? usage : await priceGeneration(usage, this.code, this.engine, request);
    const parts = meterGeneration(this.engine, request, this.signal, sink);
    for await (const part of parts) {
      if (part.type === 'text-delta') {
        text += part.text;
        options.onText?.(part.text);
      } else if (part.type === 'reasoning-delta') reasoning += part.text;
      else if (part.type === 'finish') {
        finishReason = part.reason;
        this.usage.promptTokens += part.usage.promptTokens;
        this.usage.completionTokens += part.usage.completionTokens;
      }
    }
    throwIfCancelled(this.signal);
    this.lastFinish = finishReason;
    return { text: cleanReply(text), reasoning: reasoning.trim(), finishReason };
  }
}

/**
 * Models often wrap a translation in a code fence or in the XML tags the prompt used, although
 * told not to: strip those, and nothing else.
 */
export function cleanReply(text: string): string {
  let t = text.trim();
  const fence = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(t);
  if (fence) t = fence[1]!.trim();
  const tag = /^<(TRANSLATION|IMPROVED_TRANSLATION)>([\s\S]*)<\/\1>$/i.exec(t);
  if (tag) t = tag[2]!.trim();
  return t;
}
