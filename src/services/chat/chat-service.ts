import type { ChatCompletionBody } from '../../api/chat.js';
import type { ChatEngine, ChatStreamPart, ChatUsage } from '../../engines/chat/types.js';
import { ApiError, invalidField } from '../../errors/api-error.js';
import { chatModel } from '../../models/catalogue.js';
import type { SearchResultEntry } from '../../search/result-entry.js';
import { newPlatformId, unixSeconds } from '../../server/ids.js';
import type { SearchService } from '../search/search-service.js';
import { ChunkEncoder } from './chunk-encoder.js';
import type { EngineDirectory } from './engine-directory.js';
import { foldParts } from './fold-parts.js';
import { mapChatRequest } from './map-request.js';
import { applySearchTools } from './search-tools.js';
import type { ChatCompletion, ChatCompletionChunk, CompletionIdentity } from './wire-types.js';

export interface CompletionRun {
  identity: CompletionIdentity;
  toolStream: boolean;
  parts: AsyncIterable<ChatStreamPart>;
  /** Set when the engine reports its finish. */
  usage: ChatUsage | undefined;
  /** Search results to return (`web_search` tool with `search_result: true`), first or last. */
  webSearch: { results: SearchResultEntry[]; sequence: 'before' | 'after' } | undefined;
}

export type StreamFailureLog = (err: unknown, message: string) => void;

/** The meaning of a chat completion: model resolution, defaults, and the two reply forms. */
export class ChatService {
  constructor(
    private readonly engines: EngineDirectory,
    private readonly search: SearchService,
  ) {}

  hasModel(code: string): boolean {
    return this.engines.has(code);
  }

  async engineFor(code: string): Promise<ChatEngine> {
    const engine = this.engines.get(code);
    if (!engine) {
      throw new ApiError(
        1211,
        `Model ${code} is not configured on this server: add a deployment under \`models.${code}\` or set \`embedded.default_model\``,
      );
    }
    return engine;
  }

  async start(
    body: ChatCompletionBody,
    clientRequestId: string | undefined,
    signal: AbortSignal,
  ): Promise<CompletionRun> {
    const spec = chatModel(body.model);
    if (!spec) throw new ApiError(1211, `Model not found: ${body.model}`);
    const engine = await this.engineFor(body.model);
    const augmented = await applySearchTools(body, this.search);
    const request = mapChatRequest({ ...body, messages: augmented.messages }, spec, engine.capabilities);
    if (request.tools.length > 0 && !engine.capabilities.tools)
      throw invalidField('tools', `${body.model} here does not support function tools`);
    if (request.responseFormat === 'json_object' && !engine.capabilities.json) {
      throw invalidField('response_format', `${body.model} here does not support JSON mode`);
    }
    const id = newPlatformId();
    const run: CompletionRun = {
      identity: { id, requestId: clientRequestId ?? id, created: unixSeconds(), model: body.model },
      toolStream: body.tool_stream === true && spec.toolStream,
      parts: engine.generate(request, signal),
      usage: undefined,
      webSearch: augmented.webSearch && { results: augmented.webSearch, sequence: augmented.sequence },
    };
    run.parts = recordUsage(run.parts, run);
    return run;
  }

  async complete(run: CompletionRun): Promise<ChatCompletion> {
    const completion = await foldParts(run.parts, run.identity);
    return run.webSearch ? { ...completion, web_search: run.webSearch.results } : completion;
  }

  /**
   * The stream's chunks. A failure before the first chunk propagates (the caller answers it as a
   * JSON error); after it, the stream ends with a `network_error` chunk (decisions.md §2).
   */
  async *chunks(run: CompletionRun, signal: AbortSignal, log: StreamFailureLog): AsyncGenerator<ChatCompletionChunk> {
    const encoder = new ChunkEncoder(run.identity, run.toolStream);
    const search = run.webSearch;
    let sent = false;
    let finished = false;
    try {
      for await (const part of run.parts) {
        let chunk = encoder.encode(part);
        if (part.type === 'finish') finished = true;
        if (!chunk) continue;
        // decisions.md §3: results ride on the first chunk (`before`) or the last (`after`).
        if (search && (search.sequence === 'before' ? !sent : part.type === 'finish'))
          chunk = { ...chunk, web_search: search.results };
        sent = true;
        yield chunk;
      }
    } catch (err) {
      if (!sent) throw err;
      log(err, 'stream failed after its first chunk');
      yield encoder.finish('network_error', run.usage);
      return;
    }
    if (!finished && !signal.aborted) yield encoder.finish('network_error', run.usage);
  }
}

async function* recordUsage(parts: AsyncIterable<ChatStreamPart>, run: CompletionRun): AsyncGenerator<ChatStreamPart> {
  for await (const part of parts) {
    if (part.type === 'finish') run.usage = part.usage;
    yield part;
  }
}
