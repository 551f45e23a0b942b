import {
  type ChatHistoryItem,
  type ChatModelFunctions,
  type ChatWrapper,
  type ChatWrapperGenerateContextStateOptions,
  LlamaChat,
  type LlamaContextSequence,
  type LlamaModel,
  type LlamaText,
  resolveChatWrapper,
  type Token,
} from 'node-llama-cpp';
import { ApiError } from '../../../errors/api-error.js';
import { contextExceeded } from '../../../errors/errors.js';
import type { CancelSignal } from '../../../util/cancel-signal.js';
import type {
  ChatEngine,
  ChatEngineCapabilities,
  ChatMessage,
  ChatRequest,
  ChatStreamPart,
  FunctionTool,
} from '../types.js';
import { stepBatching } from './batch-order.js';
import { detectCapabilities } from './capabilities.js';
import { forcedCallWrapper } from './forced-call.js';
import { runGeneration } from './generation.js';
import { checkGguf } from './gguf-check.js';
import { toChatHistory, toFunctions } from './history.js';
import { JsonGrammars } from './json-grammars.js';
import { type LlamaCppEngineOptions, resolveOptions } from './options.js';
import { prefillPrompt } from './prefill.js';
import { PromptCache } from './prompt-cache.js';
import { commonPrefix } from './prompt-cache-index.js';
import { sharedLlama } from './runtime.js';
import { SequencePool } from './sequence-pool.js';
import { TokenizerThread, TokenMemo } from './tokenizer-thread.js';

export interface LlamaCppEngine extends ChatEngine {
  /** Sequences free right now and requests waiting for one (for health and tests). */
  readonly load: { available: number; waiting: number };
}

interface Slot {
  sequence: LlamaContextSequence;
  chat: LlamaChat;
}

/**
 * Prompts past this many characters are counted and tokenized on the tokenizer thread
 * (tokenizer-thread.ts). llama.cpp's tokenizer takes about 0.7 µs of CPU a character on the loop
 * (the test model: 131,072 characters 90 ms, 4 MB 2.6 s, and LlamaChat tokenizes the prompt a
 * second time); below this, a prompt holds the loop about 25 ms each time.
 */
const THREAD_COUNT_CHARS = 32_768;

/** The characters of a prompt's text parts, summed without joining. */
function textLength(text: LlamaText): number {
  let chars = 0;
  for (const value of text.values) if (typeof value === 'string') chars += value.length;
  return chars;
}

/** The tools the model may call: all, or the one `toolChoice` names. */
function offeredTools(request: ChatRequest): ChatRequest['tools'] {
  const choice = request.toolChoice;
  return typeof choice === 'object' ? request.tools.filter((t) => t.name === choice.name) : request.tools;
}

/** A request's prompt, ready for LlamaChat. */
interface Prepared {
  history: ChatHistoryItem[];
  functions: ChatModelFunctions | undefined;
  grammar: Awaited<ReturnType<JsonGrammars['get']>> | undefined;
  forced: ChatWrapper | undefined;
}

class Engine implements LlamaCppEngine {
  private readonly grammars: JsonGrammars;
  private readonly memo: TokenMemo;

  constructor(
    readonly capabilities: ChatEngineCapabilities,
    private readonly model: LlamaModel,
    private readonly wrapper: ChatWrapper,
    private readonly pool: SequencePool<Slot>,
    private readonly contextSize: number,
    private readonly dispose: () => Promise<void>,
    private readonly thread: TokenizerThread,
    /** Requests whose model is generating now: a decode step waits for each of them (batch-order.ts). */
    private readonly generating: { count: number },
    /** Prompt states shared between the sequences; undefined when off. */
    private readonly cache: PromptCache | undefined,
  ) {
    this.grammars = new JsonGrammars(model.llama);
    this.memo = new TokenMemo(model);
  }

  get load() {
    return { available: this.pool.available, waiting: this.pool.waiting };
  }

  stats() {
    return { inFlight: this.pool.size - this.pool.available, waiting: this.pool.waiting, healthy: true };
  }

  /** The prompt's text exactly as LlamaChat will evaluate it: the same wrapper, history and functions. */
  private promptText(
    history: ChatHistoryItem[],
    functions: ChatModelFunctions | undefined,
    wrapper: ChatWrapper = this.wrapper,
  ): LlamaText {
    const options: ChatWrapperGenerateContextStateOptions = { chatHistory: history, documentFunctionParams: true };
    if (functions !== undefined) options.availableFunctions = functions;
    const state = wrapper.generateContextState(options);
    return state.contextText;
  }

  /**
   * The prompt's tokens, and what to call once LlamaChat has read them. A long prompt is tokenized
   * on the thread, and its pieces are held in the memo, where LlamaChat finds them when it
   * tokenizes the same prompt again: the loop tokenizes nothing long. Up to the chat bound
   * (`chat.max_chars_per_token` × the context: 4 MB for 131072 tokens) the loop held 2.6–3.6 s
   * otherwise. What LlamaChat still does on the loop is copy the tokens it finds: 200,000
   * characters took 39 ms of CPU there, against 123 ms tokenized (tokenizer-thread.test.ts).
   */
  private async promptTokens(
    history: ChatHistoryItem[],
    functions: ChatModelFunctions | undefined,
    wrapper: ChatWrapper,
    signal: CancelSignal,
  ): Promise<{ tokens: Token[]; release: () => void }> {
    const text = this.promptText(history, functions, wrapper);
    if (textLength(text) <= THREAD_COUNT_CHARS)
      return { tokens: text.tokenize(this.model.tokenizer), release: () => {} };
    try {
      const { tokens, pieces } = await this.thread.tokenize(text, signal);
      return { tokens, release: this.memo.hold(pieces) };
    } catch (err) {
      // A full line (1305) or a client gone stands; a thread that failed, here (the same tokens).
      if (err instanceof ApiError || signal.aborted) throw err;
      return { tokens: text.tokenize(this.model.tokenizer), release: () => {} };
    }
  }

  async countTokens(messages: ChatMessage[], tools: FunctionTool[], signal?: CancelSignal): Promise<number> {
    const text = this.promptText(toChatHistory(messages), toFunctions(tools));
    if (textLength(text) <= THREAD_COUNT_CHARS) return text.tokenize(this.model.tokenizer).length;
    // A long prompt is counted off the event loop; a full line (1305) or a client gone stands, and
    // should the thread fail, it is counted here (the same count).
    return this.thread.count(text, signal).catch((err: unknown) => {
      if (err instanceof ApiError || signal?.aborted) throw err;
      return text.tokenize(this.model.tokenizer).length;
    });
  }

  async *generate(request: ChatRequest, signal: CancelSignal): AsyncIterable<ChatStreamPart> {
    const history = toChatHistory(request.messages);
    const json = request.responseFormat === 'json_object';
    // node-llama-cpp takes either a grammar or functions: JSON mode does not offer tools.
    const functions = json ? undefined : toFunctions(offeredTools(request));
    const grammar = json ? await this.grammars.get(request.jsonSchema) : undefined;
    // A call the model must make has a wrapper of its own for this request (forced-call.ts).
    const forced =
      functions !== undefined && (request.toolChoice ?? 'auto') !== 'auto'
        ? forcedCallWrapper(this.wrapper)
        : undefined;
    let prompt: Token[];
    let release: () => void;
    try {
      ({ tokens: prompt, release } = await this.promptTokens(history, functions, forced ?? this.wrapper, signal));
    } catch (err) {
      if (signal.aborted && !(err instanceof ApiError)) return;
      throw err;
    }
    try {
      yield* this.generateFrom(prompt, { history, functions, grammar, forced }, request, signal);
    } finally {
      release();
    }
  }

  private async *generateFrom(
    prompt: Token[],
    { history, functions, grammar, forced }: Prepared,
    request: ChatRequest,
    signal: CancelSignal,
  ): AsyncIterable<ChatStreamPart> {
    if (prompt.length >= this.contextSize) {
      throw contextExceeded(
        `Prompt is ${prompt.length} tokens; the model's context window is ${this.contextSize} tokens`,
      );
    }
    let lease: Awaited<ReturnType<SequencePool<Slot>['acquire']>>;
    // A prefix the cache can restore into any sequence does not make one sequence better than
    // another: then the lowest id wins, which keeps the sequences in use neighbours (batch-order.ts).
    const restorable = this.cache?.match(prompt) ?? 0;
    try {
      lease = await this.pool.acquire(request.tenant ?? '', signal, (slot) =>
        Math.max(restorable, commonPrefix(slot.sequence.contextTokens, prompt)),
      );
    } catch (err) {
      if (signal.aborted && !(err instanceof ApiError)) return;
      throw err;
    }
    const { sequence } = lease.item;
    const chat = forced ? new LlamaChat({ contextSequence: sequence, chatWrapper: forced }) : lease.item.chat;
    try {
      await this.cache?.restore(sequence, prompt);
      // The last prompt token is always evaluated again to get the next token's logits.
      const cachedTokens = Math.min(commonPrefix(sequence.contextTokens, prompt), prompt.length - 1);
      // What the sequence holds of the prompt is what a call cut short in its prefill is billed.
      const cached = Math.max(0, cachedTokens);
      const evaluated = (tokens: number) => request.onPrompt?.({ tokens: prompt.length, evaluated: tokens, cached });
      if (!(await prefillPrompt(sequence, prompt, signal, evaluated))) return;
      // LlamaChat evaluates the rest (at least the last token) before the first part: the whole prompt.
      evaluated(prompt.length);
      await this.cache?.save(sequence);
      this.generating.count++;
      let counted = true;
      const onModelDone = () => {
        if (counted) this.generating.count--;
        counted = false;
      };
      try {
        yield* runGeneration(
          {
            chat,
            history,
            functions,
            grammar,
            request,
            promptTokens: prompt.length,
            cachedTokens: Math.max(0, cachedTokens),
            roomForOutput: this.contextSize - prompt.length,
            onModelDone,
          },
          signal,
        );
      } finally {
        onModelDone();
      }
    } finally {
      if (chat !== lease.item.chat) chat.dispose({ disposeSequence: false });
      lease.release();
    }
  }

  async close(): Promise<void> {
    await this.thread.close();
    await this.dispose();
    await this.cache?.close();
  }
}

/**
 * The embedded llama.cpp chat engine for one GGUF. The file's metadata is checked in pure JS
 * before the native loader sees it (a bad file is a thrown ModelFileError, not a crashed process).
 */
export async function createLlamaCppEngine(options: LlamaCppEngineOptions): Promise<LlamaCppEngine> {
  const o = resolveOptions(options);
  await checkGguf(o.modelPath);
  const llama = await sharedLlama(o.gpu);
  const model = await llama.loadModel({ modelPath: o.modelPath, gpuLayers: o.gpu === false ? 0 : 'auto' });
  try {
    const generating = { count: 0 };
    const batching = stepBatching(() => generating.count);
    const context = await model.createContext({
      contextSize: o.contextSize,
      sequences: o.parallel,
      threads: o.threads,
      batching: batching.options,
    });
    batching.attach(context);
    const wrapper = resolveChatWrapper(model);
    const slots: Slot[] = [];
    for (let i = 0; i < o.parallel; i++) {
      const sequence = context.getSequence();
      slots.push({ sequence, chat: new LlamaChat({ contextSequence: sequence, chatWrapper: wrapper }) });
    }
    const capabilities = detectCapabilities(wrapper, context.contextSize, o);
    const pool = new SequencePool(slots, o.queueLimit);
    const cache = await PromptCache.open(
      {
        modelPath: o.modelPath,
        contextSize: context.contextSize,
        sequences: o.parallel,
        wholeOnly: slots[0]?.sequence.needsCheckpoints ?? false,
      },
      o.promptCacheBytes,
      o.warn,
    );
    const dispose = async () => {
      await context.dispose();
      await model.dispose();
    };
    return new Engine(
      capabilities,
      model,
      wrapper,
      pool,
      context.contextSize,
      dispose,
      new TokenizerThread(o.modelPath, o.tokenizerQueueSize),
      generating,
      cache,
    );
  } catch (err) {
    await model.dispose();
    throw err;
  }
}
