import { tmpdir } from 'node:os';
import { Type } from '@sinclair/typebox';
import type { ChatEngineFactory, EngineContext } from '../../src/engines/chat/factory.js';
import type {
  ChatEngine,
  ChatEngineCapabilities,
  ChatMessage,
  ChatRequest,
  ChatStreamPart,
  ChatUsage,
  FinishReason,
  FunctionTool,
  PromptProgress,
} from '../../src/engines/chat/types.js';
import { CHAT_MODEL_CODES, TOKENIZER_MODEL_CODES } from '../../src/models/catalogue.js';
import { ChatService } from '../../src/services/chat/chat-service.js';
import { EngineDirectory } from '../../src/services/chat/engine-directory.js';
import type { SearchService } from '../../src/services/search/search-service.js';
import type { CancelSignal } from '../../src/util/cancel-signal.js';

export const SCRIPTED_CAPABILITIES: ChatEngineCapabilities = {
  tools: true,
  thinking: true,
  json: true,
  vision: false,
  maxContext: 4096,
  maxOutput: 1024,
};

export const SCRIPTED_USAGE: ChatUsage = { promptTokens: 5, completionTokens: 3, cachedTokens: 0, reasoningTokens: 0 };

/** One scripted reply: its parts in order, then (optionally) a failure instead of the end. */
interface Turn {
  parts: ChatStreamPart[];
  fail?: unknown;
  /** Reported through the request's `onPrompt` before the first part, in order. */
  prompt?: PromptProgress[];
  /** After its parts, waits until the call is cancelled (an engine stalled in its prefill or output). */
  stall?: boolean;
}

/**
 * A chat engine that plays back scripted replies, one per `generate()`, and records every request
 * and token count it is asked for: the fake the service tests use instead of ad-hoc objects. It
 * honours the seam: parts in order, cancellation ends the iterator, failures throw.
 *
 *     const engine = new ScriptedChatEngine().says('Hello').fails(['Hi'], upstreamFailure('lost'));
 */
export class ScriptedChatEngine implements ChatEngine {
  readonly requests: ChatRequest[] = [];
  readonly counted: { messages: ChatMessage[]; tools: FunctionTool[] }[] = [];
  closed = false;
  private readonly turns: Turn[] = [];

  constructor(
    readonly capabilities: ChatEngineCapabilities = SCRIPTED_CAPABILITIES,
    /** Tokens of a prompt: by default one per character of its JSON. */
    private readonly tokens: (messages: ChatMessage[], tools: FunctionTool[]) => number = (messages, tools) =>
      JSON.stringify([messages, tools]).length,
  ) {}

  /** Queues a reply of these parts, as they are (no finish is added). */
  replies(parts: ChatStreamPart[]): this {
    this.turns.push({ parts });
    return this;
  }

  /** Queues a text reply in these pieces, finished with `reason` and `usage`. */
  says(pieces: string | string[], reason: FinishReason = 'stop', usage: ChatUsage = SCRIPTED_USAGE): this {
    const texts = typeof pieces === 'string' ? [pieces] : pieces;
    return this.replies([
      ...texts.map((text): ChatStreamPart => ({ type: 'text-delta', text })),
      { type: 'finish', reason, usage },
    ]);
  }

  /** Queues a reply that sends these text pieces and then throws `err` (no finish). */
  fails(pieces: string[], err: unknown): this {
    this.turns.push({ parts: pieces.map((text) => ({ type: 'text-delta', text })), fail: err });
    return this;
  }

  /** Queues a reply that reports `progress` of its prompt, sends `pieces`, then waits to be cancelled. */
  stalls(progress: PromptProgress[], pieces: string[] = []): this {
    this.turns.push({ parts: pieces.map((text) => ({ type: 'text-delta', text })), prompt: progress, stall: true });
    return this;
  }

  generate(request: ChatRequest, signal: CancelSignal): AsyncIterable<ChatStreamPart> {
    this.requests.push(request);
    const turn = this.turns.shift();
    if (turn === undefined) throw new Error('ScriptedChatEngine: no reply scripted for this request');
    return playback(turn, request, signal);
  }

  async countTokens(messages: ChatMessage[], tools: FunctionTool[]): Promise<number> {
    this.counted.push({ messages, tools });
    return this.tokens(messages, tools);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

async function* playback(turn: Turn, request: ChatRequest, signal: CancelSignal): AsyncGenerator<ChatStreamPart> {
  for (const progress of turn.prompt ?? []) request.onPrompt?.(progress);
  for (const part of turn.parts) {
    if (signal.aborted) return;
    yield part;
  }
  if (turn.stall && !signal.aborted)
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  if (turn.fail !== undefined && !signal.aborted) throw turn.fail;
}

const CONTEXT: EngineContext = {
  modelsDir: tmpdir(),
  configDir: tmpdir(),
  defaultThreads: 1,
  promptCacheBytes: 0,
  tokenizerQueueSize: 16,
  log: { info() {}, warn() {}, error() {} },
};

type Deployments = ConstructorParameters<typeof EngineDirectory>[0];

/**
 * An engine directory serving these engines by model code; one engine given alone serves every
 * chat and tokenizer model code.
 */
export function scriptedDirectory(engines: ChatEngine | Record<string, ChatEngine>): EngineDirectory {
  const isEngine = (e: typeof engines): e is ChatEngine => typeof (e as ChatEngine).generate === 'function';
  const byCode: Record<string, ChatEngine> = isEngine(engines)
    ? Object.fromEntries([...new Set([...CHAT_MODEL_CODES, ...TOKENIZER_MODEL_CODES])].map((c) => [c, engines]))
    : engines;
  const factory: ChatEngineFactory = {
    schema: Type.Object({ engine: Type.Literal('scripted'), code: Type.String() }),
    create: async (options) => byCode[(options as { code: string }).code]!,
  };
  const deployments: Deployments = new Map(
    Object.keys(byCode).map((code) => [
      code,
      [{ factory, options: { engine: 'scripted', code }, identity: `scripted:${code}`, label: `${code}[0]`, cap: {} }],
    ]),
  );
  return new EngineDirectory(deployments, CONTEXT);
}

/** A search service that is never asked (requests without search tools). */
const NO_SEARCH = {
  search: () => Promise.reject(new Error('no search here')),
} as unknown as SearchService;

/** A real ChatService on scripted engines. */
export function scriptedChatService(
  engines: ChatEngine | Record<string, ChatEngine>,
  search: SearchService = NO_SEARCH,
): ChatService {
  return new ChatService(scriptedDirectory(engines), search);
}
