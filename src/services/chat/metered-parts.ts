import { tokenEstimate } from '../../engines/chat/token-bound.js';
import type {
  ChatEngine,
  ChatMessage,
  ChatRequest,
  ChatStreamPart,
  FunctionTool,
  PartIterator,
  PartStream,
  PromptProgress,
} from '../../engines/chat/types.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import type { UsageSink } from '../billing/priced-generation.js';
import type { TokenCounts } from '../usage/request-usage.js';

/** What the metered generation asked for: its prompt is counted again when it is cut short. */
export interface MeteredPrompt {
  messages: ChatMessage[];
  tools: FunctionTool[];
}

type Counter = Pick<ChatEngine, 'countTokens'>;

/** What the engine said of the prompt before its first part (ChatRequest.onPrompt); `undefined`: nothing. */
class PromptNote {
  progress: PromptProgress | undefined = undefined;
  readonly report = (progress: PromptProgress): void => {
    this.progress = progress;
  };
}

/**
 * An engine's parts as they are, with what they cost added to the request's `usage` however the
 * generation ends. An engine reports its figures in its finish part; one that never gets there (the
 * client went away, a timeout, an upstream failure or stall) is billed the prompt's tokens once
 * evaluated and the completion's tokens as emitted (text, reasoning and tool calls):
 * - after the first part, the prompt and the emitted text, counted with the engine's own tokenizer
 *   when the stream ends;
 * - before it, what the engine said of the prompt (`onPrompt`): the tokens evaluated where it says,
 *   else the whole prompt once handed over (its length where the engine tokenized it, else counted);
 * - nothing when the prompt never reached the engine's evaluation (refused, or waiting its turn).
 *
 * Every consumer of a generation (the chat service's two reply forms, the agents' model calls, and
 * the edges built on the chat service) gets this by consuming the stream: none notes usage itself.
 */
export function meterGeneration(
  engine: Pick<ChatEngine, 'countTokens' | 'generate'>,
  request: ChatRequest,
  signal: CancelSignal,
  usage: UsageSink,
): PartStream {
  const note = new PromptNote();
  request.onPrompt = note.report;
  const parts = engine.generate(request, signal);
  return {
    [Symbol.asyncIterator]: () => new MeteredIterator(parts[Symbol.asyncIterator](), engine, request, usage, note),
  };
}

const END: IteratorResult<ChatStreamPart> = { done: true, value: undefined };

/** A hand-written iterator: one `then` per part, where a generator layer would cost several turns. */
class MeteredIterator implements PartIterator {
  private started = false;
  private finished = false;
  private ended = false;
  /** What the client has been sent, for a count when the engine's own figures never come. */
  private emitted = '';
  private readonly onResult: (result: IteratorResult<ChatStreamPart>) => IteratorResult<ChatStreamPart>;
  private readonly onError: (err: unknown) => never;

  constructor(
    private readonly inner: PartIterator,
    private readonly engine: Counter,
    private readonly prompt: MeteredPrompt,
    private readonly usage: UsageSink,
    private readonly note: PromptNote,
  ) {
    this.onResult = this.observe.bind(this);
    this.onError = this.failed.bind(this);
  }

  next(): Promise<IteratorResult<ChatStreamPart>> {
    if (this.ended) return Promise.resolve(END);
    return this.inner.next().then(this.onResult, this.onError);
  }

  async return(): Promise<IteratorResult<ChatStreamPart>> {
    this.end();
    await this.inner.return?.();
    return END;
  }

  private observe(result: IteratorResult<ChatStreamPart>): IteratorResult<ChatStreamPart> {
    if (result.done) {
      this.end();
      return result;
    }
    const part = result.value;
    this.started = true;
    switch (part.type) {
      case 'text-delta':
      case 'reasoning-delta':
        this.emitted += part.text;
        break;
      case 'tool-call-start':
        this.emitted += part.name;
        break;
      case 'tool-call-delta':
        this.emitted += part.argumentsDelta;
        break;
      case 'finish':
        this.finished = true;
        this.usage.add(part.usage);
        break;
    }
    return result;
  }

  private failed(err: unknown): never {
    this.end();
    throw err;
  }

  /** The generation is over: bills what it used when the engine did not say. */
  private end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.finished) return;
    if (this.started) {
      this.usage.addLater(countCutShort(this.engine, this.prompt, this.emitted));
      this.emitted = '';
      return;
    }
    const progress = this.note.progress;
    if (progress === undefined) return;
    const tokens = progress.evaluated ?? progress.tokens;
    if (tokens === undefined) this.usage.addLater(countCutShort(this.engine, this.prompt, ''));
    else if (tokens > 0) {
      const cached = progress.cached === undefined ? undefined : Math.min(progress.cached, tokens);
      this.usage.add({ promptTokens: tokens, completionTokens: 0, cachedTokens: cached });
    }
  }
}

/**
 * How long a cut-short generation's count may take (an upstream's tokenizer may be the failing
 * party): past it the estimate stands in. The record (and a failed stream's `[DONE]`) waits for it.
 */
export const COUNT_WAIT_MS = 2_000;

/**
 * The tokens of a generation cut short: its prompt, and the completion emitted so far (the text of
 * an assistant message less that of an empty one, so the template's markup is not counted). An
 * engine that cannot count in time (no tokenizer, an upstream away) gives an estimate from the
 * text's size.
 */
export async function countCutShort(engine: Counter, prompt: MeteredPrompt, emitted: string): Promise<TokenCounts> {
  const bound = AbortSignal.timeout(COUNT_WAIT_MS);
  const reply = (content: string): ChatMessage[] => [{ role: 'assistant', content }];
  const [promptTokens, whole, empty] = await Promise.all([
    countOrEstimate(engine, prompt.messages, prompt.tools, bound),
    emitted === '' ? 0 : countOrEstimate(engine, reply(emitted), [], bound),
    emitted === '' ? 0 : countOrEstimate(engine, reply(''), [], bound),
  ]);
  return { promptTokens, completionTokens: emitted === '' ? 0 : Math.max(1, whole - empty) };
}

async function countOrEstimate(
  engine: Counter,
  messages: ChatMessage[],
  tools: FunctionTool[],
  signal: CancelSignal,
): Promise<number> {
  try {
    return await engine.countTokens(messages, tools, signal);
  } catch {
    // Billing a cut-short generation must not fail or wait with its engine: the estimate stands in.
    return tokenEstimate(messages, tools);
  }
}
