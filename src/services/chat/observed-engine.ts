import type {
  ChatEngine,
  ChatMessage,
  ChatRequest,
  ChatStreamPart,
  FunctionTool,
  PartIterator,
  PartStream,
} from '../../engines/chat/types.js';
import type { Span, Tracer } from '../../telemetry/tracer.js';
import type { CancelSignal } from '../../util/cancel-signal.js';

/** The token timings /metrics shows per model code, of streamed replies (the edge's metrics implement it). */
export interface GenerationTimings {
  /** From the engine call to the first token (text, reasoning or a tool call). */
  firstToken(model: string, seconds: number): void;
  /** Mean time between the tokens after the first, once per reply that made more than one. */
  betweenTokens(model: string, seconds: number): void;
}

/** What watches engine calls: set only when tracing or metrics are on. */
export interface EngineObservers {
  tracer?: Tracer | undefined;
  timings?: GenerationTimings | undefined;
}

/**
 * A model code's engine as seen by tracing and metrics: a GenAI client span per call (semantic
 * conventions: model, tokens in and out, finish reasons; its `traceparent` goes to the engine, which
 * sends it upstream) and the time to the first token and between tokens. Only wrapped when one of
 * them is on, so that off, the engine's parts reach the encoder with no layer in between.
 */
export function observeEngine(
  engine: ChatEngine,
  model: string,
  provider: string,
  observers: EngineObservers,
): ChatEngine {
  const { tracer, timings } = observers;
  const observed: ChatEngine = {
    capabilities: engine.capabilities,
    generate(request: ChatRequest, signal) {
      const started = performance.now();
      // A reply taken whole may come whole from an upstream too: its tokens carry no timing.
      const timed = request.stream === false ? undefined : timings;
      if (!tracer) return new ObservedParts(engine.generate(request, signal), started, model, undefined, timed);
      const span = tracer.startSpan(`chat ${model}`, {
        kind: 'client',
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': provider,
          'gen_ai.request.model': model,
          'gen_ai.request.max_tokens': request.maxTokens,
          'gen_ai.request.temperature': request.sampling.greedy ? 0 : request.sampling.temperature,
          'gen_ai.request.top_p': request.sampling.topP,
          'gen_ai.request.seed': request.sampling.seed,
          'gen_ai.output.type': request.responseFormat === 'json_object' ? 'json' : 'text',
          'gen_ai.request.stream': request.stream !== false,
        },
      });
      const traced = { ...request, traceparent: span.traceparent() };
      try {
        return new ObservedParts(
          span.run(() => engine.generate(traced, signal)),
          started,
          model,
          span,
          timed,
        );
      } catch (err) {
        span.fail(err);
        span.end();
        throw err;
      }
    },
    async countTokens(messages: ChatMessage[], tools: FunctionTool[], signal?: CancelSignal) {
      if (!tracer) return engine.countTokens(messages, tools, signal);
      const span = tracer.startSpan(`count_tokens ${model}`, {
        kind: 'client',
        attributes: { 'gen_ai.operation.name': 'count_tokens', 'gen_ai.request.model': model },
      });
      try {
        const count = await span.run(() => engine.countTokens(messages, tools, signal));
        span.setAttributes({ 'gen_ai.usage.input_tokens': count });
        return count;
      } catch (err) {
        span.fail(err);
        throw err;
      } finally {
        span.end();
      }
    },
    close: () => engine.close(),
  };
  if (engine.stats) observed.stats = () => engine.stats!();
  return observed;
}

/** The engine's parts, passed through as they are; what they say is noted on the way. */
class ObservedParts implements AsyncIterableIterator<ChatStreamPart>, PartIterator {
  private iterator: PartIterator | undefined = undefined;
  /** performance.now() of the first token; 0 until then. */
  private first = 0;
  private ended = false;
  private readonly onResult: (result: IteratorResult<ChatStreamPart>) => IteratorResult<ChatStreamPart>;
  private readonly onError: (err: unknown) => never;

  constructor(
    private readonly source: PartStream,
    private readonly started: number,
    private readonly model: string,
    private readonly span: Span | undefined,
    private readonly timings: GenerationTimings | undefined,
  ) {
    this.onResult = (result) => {
      if (result.done) this.end();
      else this.see(result.value);
      return result;
    };
    this.onError = (err) => {
      this.span?.fail(err);
      this.end();
      throw err;
    };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ChatStreamPart>> {
    this.iterator ??= this.source[Symbol.asyncIterator]();
    return this.iterator.next().then(this.onResult, this.onError);
  }

  async return(): Promise<IteratorResult<ChatStreamPart>> {
    // The consumer stopped early (the client left, or a stop sequence): the call ends here.
    if (!this.ended) this.span?.setAttributes({ 'gen_platform.cancelled': true });
    this.end();
    await this.iterator?.return?.();
    return { done: true, value: undefined };
  }

  private see(part: ChatStreamPart): void {
    if (part.type === 'finish') {
      const { usage } = part;
      const now = performance.now();
      if (this.first > 0 && usage.completionTokens > 1)
        this.timings?.betweenTokens(this.model, (now - this.first) / 1000 / (usage.completionTokens - 1));
      this.span?.setAttributes({
        'gen_ai.response.model': this.model,
        'gen_ai.response.finish_reasons': [part.reason],
        'gen_ai.usage.input_tokens': usage.promptTokens,
        'gen_ai.usage.output_tokens': usage.completionTokens,
        'gen_ai.usage.cache_read.input_tokens': usage.cachedTokens,
        'gen_ai.usage.reasoning.output_tokens': usage.reasoningTokens,
      });
      return;
    }
    if (this.first === 0 && part.type !== 'tool-call-end') {
      this.first = performance.now();
      const seconds = (this.first - this.started) / 1000;
      this.timings?.firstToken(this.model, seconds);
      this.span?.setAttributes({ 'gen_ai.server.time_to_first_token': seconds });
    }
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.span?.end();
  }
}
