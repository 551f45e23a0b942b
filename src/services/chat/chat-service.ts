import type { ChatCompletionBody } from '../../api/chat.js';
import type { ReplyIdentity } from '../../api/reply-identity.js';
import type { ChatEngine, ChatStreamPart, ChatUsage, PartIterator, PartStream } from '../../engines/chat/types.js';
import { invalidField, unknownModel } from '../../errors/errors.js';
import { chatModel } from '../../models/catalogue.js';
import type { SearchResultEntry } from '../../search/result-entry.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import { WAIT } from '../billing/call-meter.js';
import { priceGeneration, priceGenerationNow } from '../billing/priced-generation.js';
import type { CallContext } from '../call-context.js';
import type { EventSource } from '../event-source.js';
import type { SearchService } from '../search/search-service.js';
import { chunkAfterCutOff, chunkAfterFailure, type StreamFailureLog } from '../stream-failure.js';
import { ChatMedia } from './chat-media.js';
import { ChunkEncoder } from './chunk-encoder.js';
import type { EngineDirectory } from './engine-directory.js';
import { foldParts } from './fold-parts.js';
import { mapChatRequest, type TurnOptions } from './map-request.js';
import { meterGeneration } from './metered-parts.js';
import { checkPromptFits, PROMPT_BOUNDS_DEFAULTS, type PromptBounds } from './prompt-bounds.js';
import { applySearchTools, hasSearchTool } from './search-tools.js';
import type { ChatCompletion, CompletionIdentity } from './wire-types.js';

export type { TurnOptions };

export interface CompletionRun {
  identity: CompletionIdentity;
  toolStream: boolean;
  /** The engine's parts; whichever reply form consumes them notes the usage. */
  parts: PartStream;
  /** Set when the engine reports its finish. */
  usage: ChatUsage | undefined;
  /** Search results to return (`web_search` tool with `search_result: true`), first or last. */
  webSearch: { results: SearchResultEntry[]; sequence: 'before' | 'after' } | undefined;
}

/** The meaning of a chat completion: model resolution, defaults, and the two reply forms. */
export class ChatService {
  constructor(
    private readonly engines: EngineDirectory,
    private readonly search: SearchService,
    /** Also the tokenizer's: its input is bounded as a prompt is. */
    readonly bounds: PromptBounds = PROMPT_BOUNDS_DEFAULTS,
    private readonly media: ChatMedia = new ChatMedia(),
  ) {}

  /** Whether a model code has deployments here (the agents check theirs before they start). */
  hasModel(code: string): boolean {
    return this.engines.has(code);
  }

  async engineFor(code: string): Promise<ChatEngine> {
    const engine = this.engines.get(code);
    if (!engine) {
      throw unknownModel(
        `Model ${code} is not configured on this server: add a deployment under \`models.${code}\` or set \`embedded.default_model\``,
      );
    }
    return engine;
  }

  /**
   * Starts a completion. `call.tenant` orders it against other tenants' where engines queue; what
   * it uses goes to `call.usage`, however it ends (metered-parts.ts). `options` carry what another
   * wire asks beyond the chat body.
   */
  async start(
    body: ChatCompletionBody,
    identity: ReplyIdentity,
    call: CallContext,
    options: TurnOptions = {},
  ): Promise<CompletionRun> {
    const spec = chatModel(body.model);
    if (!spec) throw unknownModel(`Model not found: ${body.model}`);
    const engine = await this.engineFor(body.model);
    const maxContext = engine.capabilities.maxContext;
    // A prompt that cannot fit is said so before the engine tokenizes it (its own check, exact,
    // follows for the rest), whatever tools come with it: the search tools below check what they add.
    checkPromptFits(body, maxContext, this.bounds);
    // Most requests carry no search tool: no search pass, no copy of the body.
    const augmented = hasSearchTool(body)
      ? await applySearchTools(body, this.search, this.bounds, maxContext, call.usage.meter, call.caller)
      : undefined;
    let messages = augmented ? augmented.messages : body.messages;
    // Media URLs reach an engine only with vision (mapChatRequest refuses them otherwise); they are
    // fetched here, once the cheap checks have passed, through the guarded fetcher, and handed over
    // inline (chat-media.ts).
    if (engine.capabilities.vision && ChatMedia.applies(messages))
      messages = await this.media.inline(messages, call.signal);
    const request = mapChatRequest(
      messages === body.messages ? body : { ...body, messages },
      spec,
      engine.capabilities,
      call.tenant,
      options,
    );
    if (request.tools.length > 0 && !engine.capabilities.tools)
      throw invalidField('tools', `${body.model} here does not support function tools`);
    if (request.responseFormat === 'json_object' && !engine.capabilities.json) {
      throw invalidField('response_format', `${body.model} here does not support JSON mode`);
    }
    // Priced: the worst case is reserved before the engine starts (1113 when it does not fit); at
    // once where the store can say, with no promise in between.
    const now = priceGenerationNow(call.usage, body.model, engine, request);
    const sink = now === WAIT ? await priceGeneration(call.usage, body.model, engine, request) : now;
    const run: CompletionRun = {
      // Field by field: an object spread here cost more than the rest of start() (V8's slow clone path).
      identity: { id: identity.id, requestId: identity.requestId, created: identity.created, model: body.model },
      toolStream: body.tool_stream === true && spec.toolStream,
      parts: meterGeneration(engine, request, call.signal, sink),
      usage: undefined,
      webSearch: augmented?.webSearch && { results: augmented.webSearch, sequence: augmented.sequence },
    };
    return run;
  }

  /**
   * The prompt tokens `start` would have the engine evaluate for this body: the same mapping, the
   * engine's own tokenizer and template (another wire's token count equals its usage).
   */
  async countPromptTokens(body: ChatCompletionBody, call: CallContext, options: TurnOptions = {}): Promise<number> {
    const spec = chatModel(body.model);
    if (!spec) throw unknownModel(`Model not found: ${body.model}`);
    const engine = await this.engineFor(body.model);
    // As `start` does: a prompt that cannot fit is not tokenized to say so.
    checkPromptFits(body, engine.capabilities.maxContext, this.bounds);
    const request = mapChatRequest(body, spec, engine.capabilities, call.tenant, options);
    return engine.countTokens(request.messages, request.tools, call.signal);
  }

  complete(run: CompletionRun): Promise<ChatCompletion> {
    const folded = foldParts(run.parts, run.identity, (usage) => {
      run.usage = usage;
    });
    const search = run.webSearch;
    return search ? folded.then((completion) => ({ ...completion, web_search: search.results })) : folded;
  }

  /**
   * The stream's chunks, as the JSON text of each. A failure before the first
   * chunk propagates (the caller answers it as a JSON error); after it, the stream ends with a
   * `network_error` chunk (docs/wire.md, "SSE framing").
   */
  chunks(run: CompletionRun, signal: CancelSignal, log: StreamFailureLog): EventSource {
    // The stream notes the usage itself: no generator layer between the engine and the encoder.
    return new ChunkStream(run, run.parts, signal, log);
  }
}

const END: IteratorResult<string> = { done: true, value: undefined };

/**
 * Engine parts in, chunk JSON out, in one pass: each `next()` is the engine's `next()` and a
 * synchronous mapping, where a generator per layer would cost several promise turns per part. The
 * behaviour is that of the generator it replaces:
 *
 *     for await (const part of parts) { note usage; encode; yield unless empty }
 *     catch: rethrow before the first chunk, else log and yield a network_error finish
 *     after: a network_error finish unless the engine finished or the client went away
 */
class ChunkStream implements EventSource, AsyncIterator<string> {
  private readonly encoder: ChunkEncoder;
  private iterator: PartIterator | undefined = undefined;
  /** `open`: parts still come; `done`: nothing more to give (after the last value or a throw). */
  private state: 'open' | 'done' = 'open';
  private sent = false;
  private finished = false;

  /** `then` callbacks, bound once per stream (no closures per part). */
  private readonly onPart: (
    result: IteratorResult<ChatStreamPart>,
  ) => IteratorResult<string> | Promise<IteratorResult<string>>;
  private readonly onError: (err: unknown) => IteratorResult<string>;
  /** The last chunk of a stream that failed or was cut off (stream-failure.ts). */
  private readonly lastChunk: (reason: 'network_error') => string;

  constructor(
    private readonly run: CompletionRun,
    private readonly parts: PartStream,
    private readonly signal: CancelSignal,
    private readonly log: StreamFailureLog,
  ) {
    this.encoder = new ChunkEncoder(run.identity, run.toolStream);
    this.onPart = this.part.bind(this);
    this.onError = this.error.bind(this);
    this.lastChunk = (reason) => this.encoder.finishJson(reason, this.run.usage);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<string>> {
    if (this.state === 'done') return Promise.resolve(END);
    this.iterator ??= this.parts[Symbol.asyncIterator]();
    return this.iterator.next().then(this.onPart, this.onError);
  }

  /** Like a generator's: closes the engine's iterator if it was started and is still open. */
  async return(): Promise<IteratorResult<string>> {
    if (this.state === 'open') {
      this.state = 'done';
      await this.iterator?.return?.();
    }
    return END;
  }

  private part(result: IteratorResult<ChatStreamPart>): IteratorResult<string> | Promise<IteratorResult<string>> {
    if (result.done) {
      this.state = 'done';
      if (this.finished) return END;
      const last = chunkAfterCutOff({ cancelled: this.signal.aborted }, this.lastChunk);
      return last === undefined ? END : { done: false, value: last };
    }
    let json: string | undefined;
    try {
      json = this.encodePart(result.value);
    } catch (err) {
      return this.closeAfter(err);
    }
    if (json === undefined) return this.next();
    this.sent = true;
    return { done: false, value: json };
  }

  /** Notes the usage of a finish part, and encodes the part (undefined: no chunk for it). */
  private encodePart(part: ChatStreamPart): string | undefined {
    if (part.type === 'finish') {
      this.run.usage = part.usage;
      this.finished = true;
    }
    return this.encode(part);
  }

  /** A throw inside a for-await body closes the iterator before the catch runs. */
  private closeAfter(err: unknown): Promise<IteratorResult<string>> {
    const closing = this.iterator?.return?.();
    return Promise.resolve(closing).then(() => this.onError(err));
  }

  private error(err: unknown): IteratorResult<string> {
    this.state = 'done';
    const progress = { sent: this.sent, cancelled: this.signal.aborted };
    const last = chunkAfterFailure(err, progress, this.log, this.lastChunk);
    return last === undefined ? END : { done: false, value: last };
  }

  private encode(part: ChatStreamPart): string | undefined {
    const search = this.run.webSearch;
    if (search === undefined) return this.encoder.encodeJson(part);
    const chunk = this.encoder.encode(part);
    if (!chunk) return undefined;
    // docs/wire.md, "Chat completions": results ride on the first chunk (`before`) or the last (`after`).
    if (search.sequence === 'before' ? !this.sent : part.type === 'finish')
      return JSON.stringify({ ...chunk, web_search: search.results });
    return JSON.stringify(chunk);
  }
}
