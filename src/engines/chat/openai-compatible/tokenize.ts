import type { Dispatcher } from 'undici';
import { ApiError } from '../../../errors/api-error.js';
import { unsupportedCall } from '../../../errors/errors.js';
import { abortSignalOf, type CancelSignal } from '../../../util/cancel-signal.js';
import { upstreamFailure } from '../../upstream-errors.js';
import { isRefusedByBackend } from '../pool-errors.js';
import type { ChatMessage, FunctionTool } from '../types.js';
import { postJson, readText } from './http.js';
import type { ResolvedOptions, TokenizerApi } from './options.js';
import { transportCause } from './reply-bounds.js';
import { promptFields } from './request-body.js';

type Shape = Exclude<TokenizerApi, 'auto' | 'none'>;

/**
 * Counts prompt tokens with the upstream's own tokenizer and chat template, so that a count equals
 * the `prompt_tokens` of a chat call with the same messages. Two shapes:
 * - vLLM (and SGLang): `POST /tokenize {model, messages, tools, add_generation_prompt}` → `{count}`;
 * - llama.cpp server: `POST /apply-template {messages, tools}` → `{prompt}`, then
 *   `POST /tokenize {content: prompt, add_special: true}` → `{tokens}` (add_special as its chat does).
 * `auto` sends vLLM's shape first: llama.cpp server answers it `{tokens: []}` (no `content`), which
 * tells the two apart; the shape found is kept. With no tokenize URL configured, `auto` tries
 * `<origin>/tokenize` once: an upstream that has none (a 4xx, or an answer of neither shape) counts
 * as having no tokenizer (1212) from then on.
 */
export class UpstreamTokenizer {
  private shape: Shape | 'none' | undefined;
  private readonly url: URL | undefined;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly agent: Dispatcher,
  ) {
    const api = options.tokenizerApi;
    this.shape = api === 'auto' ? undefined : api;
    this.url = options.tokenizeUrl ?? (api === 'none' ? undefined : new URL('/tokenize', options.origin));
  }

  /** Whether a tokenize URL was configured (else it is only a guess at the upstream's). */
  private get configured(): boolean {
    return this.options.tokenizeUrl !== undefined;
  }

  /** Aborting `signal` ends the calls under way with its reason. */
  async count(messages: ChatMessage[], tools: FunctionTool[], signal?: CancelSignal): Promise<number> {
    const url = this.url;
    if (url === undefined || this.shape === 'none') throw this.noTokenizer();
    const fields = promptFields(this.options, messages, tools, this.options.capabilities.thinking);
    if (this.shape === 'llama-server') return this.countLlamaServer(url, fields, signal);
    let reply: Record<string, unknown>;
    try {
      reply = await this.post(url, { ...fields, add_generation_prompt: true }, signal);
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (!this.configured && this.shape === undefined) {
        // A guessed URL that the upstream refuses: it has no tokenizer there. One it cannot be
        // asked at all (down, unreachable) is tried again next time; either way nothing was set.
        if (isRefusedOrUnreadable(err)) this.shape = 'none';
        throw this.noTokenizer();
      }
      throw err;
    }
    const count = reply['count'];
    if (typeof count === 'number' && Number.isInteger(count) && count >= 0) {
      this.shape = 'vllm';
      return count;
    }
    const tokens = reply['tokens'];
    if (Array.isArray(tokens) && (this.shape === 'vllm' || tokens.length > 0)) {
      // The messages' tokens without a `count`: a vLLM-like server of another version.
      this.shape = 'vllm';
      return tokens.length;
    }
    if (this.shape === undefined && Array.isArray(tokens)) {
      // llama.cpp server's answer to a body without `content`.
      this.shape = 'llama-server';
      return this.countLlamaServer(url, fields, signal);
    }
    if (!this.configured && this.shape === undefined) {
      this.shape = 'none';
      throw this.noTokenizer();
    }
    throw upstreamFailure(this.options, '/tokenize reply without a count', { phase: 'tokenize', reply });
  }

  private async countLlamaServer(
    url: URL,
    fields: Record<string, unknown>,
    signal: CancelSignal | undefined,
  ): Promise<number> {
    const rendered = await this.post(new URL('apply-template', url), fields, signal);
    const prompt = rendered['prompt'];
    if (typeof prompt !== 'string') {
      throw upstreamFailure(this.options, '/apply-template reply without a prompt', { phase: 'tokenize' });
    }
    const reply = await this.post(url, { content: prompt, add_special: true, parse_special: true }, signal);
    const tokens = reply['tokens'];
    if (!Array.isArray(tokens)) {
      throw upstreamFailure(this.options, '/tokenize reply without tokens', { phase: 'tokenize', reply });
    }
    return tokens.length;
  }

  private async post(
    url: URL,
    body: Record<string, unknown>,
    signal: CancelSignal | undefined,
  ): Promise<Record<string, unknown>> {
    const options = this.options;
    const timeout = AbortSignal.timeout(options.headersMs);
    const response = await postJson(
      options,
      this.agent,
      { origin: url.origin, path: url.pathname + url.search },
      options.headers,
      JSON.stringify(body),
      signal === undefined ? timeout : AbortSignal.any([timeout, abortSignalOf(signal)]),
    );
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readText(response.body, options.limits.maxJsonBytes));
    } catch (err) {
      throw upstreamFailure(
        options,
        `unreadable ${url.pathname} reply (${transportCause(options, err)})`,
        {
          phase: 'tokenize',
        },
        err,
      );
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw upstreamFailure(options, `unreadable ${url.pathname} reply (not an object)`, { phase: 'tokenize' });
    }
    return parsed as Record<string, unknown>;
  }

  private noTokenizer(): ApiError {
    return unsupportedCall(
      `No tokenizer is available for upstream model ${this.options.model}: set its tokenize_url (vLLM's or llama.cpp server's /tokenize) or a tokenizer (a Hugging Face tokenizer.json) to count tokens`,
    );
  }
}

const isRefusedOrUnreadable = (err: unknown): boolean =>
  err instanceof ApiError && (isRefusedByBackend(err) || /unreadable/.test(err.message));
