import type { UpstreamLogger } from '../../upstream-errors.js';
import type { TokenCounter } from '../hf-tokenizer/hf-token-counter.js';
import type { ChatEngineCapabilities } from '../types.js';

export type { UpstreamLogger };

/**
 * How the thinking switch reaches the upstream. Upstreams disagree on the field, so the config says
 * which ones to send; callers never branch on the server's name.
 */
export interface ThinkingControl {
  /** `chat_template_kwargs: {enable_thinking}`: vLLM, SGLang, llama.cpp server. */
  chatTemplateKwargs?: boolean | undefined;
  /** `reasoning_effort` values for thinking on and off; Ollama turns thinking off with `none`. */
  reasoningEffort?: { enabled?: string; disabled?: string } | undefined;
}

export interface OpenAICompatibleOptions {
  /** Base URL of the OpenAI-style API, including its version prefix, e.g. `http://10.0.0.5:8000/v1`. */
  baseUrl: string;
  /** Model name the upstream knows, e.g. `Qwen/Qwen3-8B` or `qwen3:1.7b`. */
  model: string;
  /** Already resolved secret (the config layer reads the environment). */
  apiKey?: string | undefined;
  capabilities: ChatEngineCapabilities;
  /** Full URL of the upstream's `POST /tokenize` (vLLM's or llama.cpp server's; it lives outside `/v1`). */
  tokenizeUrl?: string | undefined;
  /**
   * The shape of that endpoint: `vllm` (`{model, messages}` → `{count}`), `llama-server`
   * (`/apply-template` then `/tokenize {content}`), `auto` (default: found by the first call; with no
   * tokenize URL, `<origin>/tokenize` is tried once) or `none`.
   */
  tokenizerApi?: TokenizerApi | undefined;
  /** Counts locally when the upstream has no tokenize endpoint (a Hugging Face tokenizer.json). */
  tokenCounter?: TokenCounter | undefined;
  /** Default: `{chatTemplateKwargs: true}` when the deployment declares thinking, else nothing. */
  thinking?: ThinkingControl | undefined;
  /** Field that carries earlier turns' reasoning upstream; `none` drops it. Default `reasoning_content`. */
  reasoningField?: 'reasoning_content' | 'reasoning' | 'none' | undefined;
  /** Hosted reasoning models want `max_completion_tokens`. Default `max_tokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens' | undefined;
  /**
   * `generate` (default) replaces upstream tool-call ids with the API's `call_<24 hex>`; `upstream`
   * passes them through, for upstreams that validate the ids they issued (Mistral templates).
   */
  toolCallIds?: 'generate' | 'upstream' | undefined;
  /** Ask for SSE (default). `false` for upstreams without streaming; the reply then arrives whole. */
  stream?: boolean | undefined;
  /**
   * Reasoning that the upstream leaves in `content` as `<think>…</think>` is split out. Default: on
   * for deployments that declare thinking (a no-op where the upstream splits it itself).
   */
  thinkTags?: boolean | undefined;
  /** How JSON mode is asked for: `json_schema` (default, an open object schema) or `json_object`. */
  jsonMode?: 'json_schema' | 'json_object' | undefined;
  /** Fields merged into every chat request body (upstream-specific knobs the config wants to set). */
  extraBody?: Record<string, unknown> | undefined;
  headers?: Record<string, string> | undefined;
  timeouts?:
    | {
        /** TCP/TLS connect. Default 10 s. */
        connectMs?: number | undefined;
        /** Until response headers (a non-stream upstream sends them after the whole generation). Default 300 s. */
        headersMs?: number | undefined;
        /** Longest silence between two body chunks (covers prefill of a long prompt). Default 300 s. */
        idleMs?: number | undefined;
        /**
         * How long an idle connection is kept for the next request. Default 2 s: under the upstreams' own
         * idle close (llama.cpp server and uvicorn 5 s), so that we let a socket go before they do.
         */
        keepAliveMs?: number | undefined;
      }
    | undefined;
  /** Keep-alive connections per upstream origin. Default 256. */
  connections?: number | undefined;
  /** What one reply may hold; past a bound the call ends as an upstream failure naming it. */
  limits?: ReplyLimits | undefined;
  logger?: UpstreamLogger | undefined;
}

/** What one reply may hold, every bound set. */
export interface ReplyBounds {
  /** One SSE event (its data and its unfinished line), in characters. Default 1 MiB. */
  maxEventBytes: number;
  /** One JSON reply (a non-stream reply, an error body, a /tokenize answer). Default 16 MiB. */
  maxJsonBytes: number;
  /** A whole streamed reply, every byte of its body counted. Default 64 MiB. */
  maxReplyBytes: number;
}

/** The bounds a deployment sets; one left out or undefined keeps its default. */
export type ReplyLimits = { [K in keyof ReplyBounds]?: ReplyBounds[K] | undefined };

export const DEFAULT_LIMITS: ReplyBounds = {
  maxEventBytes: 1 << 20,
  maxJsonBytes: 16 << 20,
  maxReplyBytes: 64 << 20,
};

export type TokenizerApi = 'auto' | 'vllm' | 'llama-server' | 'none';

export interface ResolvedOptions {
  origin: string;
  chatPath: string;
  model: string;
  capabilities: ChatEngineCapabilities;
  tokenizeUrl: URL | undefined;
  tokenizerApi: TokenizerApi;
  thinking: ThinkingControl;
  reasoningField: 'reasoning_content' | 'reasoning' | 'none';
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  generateToolCallIds: boolean;
  stream: boolean;
  jsonMode: 'json_schema' | 'json_object';
  thinkTags: boolean;
  extraBody: Record<string, unknown> | undefined;
  headers: Record<string, string>;
  connectMs: number;
  headersMs: number;
  idleMs: number;
  keepAliveMs: number;
  connections: number;
  limits: ReplyBounds;
  logger: UpstreamLogger | undefined;
  /** For log lines and error messages: where the failure happened, without credentials. */
  label: string;
}

export function resolveOptions(options: OpenAICompatibleOptions): ResolvedOptions {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.apiKey) headers['authorization'] = `Bearer ${options.apiKey}`;
  return {
    origin: base.origin,
    chatPath: `${basePath}/chat/completions`,
    model: options.model,
    capabilities: { ...options.capabilities },
    tokenizeUrl: options.tokenizeUrl === undefined ? undefined : new URL(options.tokenizeUrl),
    tokenizerApi: options.tokenizerApi ?? 'auto',
    thinking: options.thinking ?? (options.capabilities.thinking ? { chatTemplateKwargs: true } : {}),
    reasoningField: options.reasoningField ?? 'reasoning_content',
    maxTokensField: options.maxTokensField ?? 'max_tokens',
    generateToolCallIds: (options.toolCallIds ?? 'generate') === 'generate',
    stream: options.stream ?? true,
    jsonMode: options.jsonMode ?? 'json_schema',
    thinkTags: options.thinkTags ?? options.capabilities.thinking,
    extraBody: options.extraBody,
    headers,
    connectMs: options.timeouts?.connectMs ?? 10_000,
    headersMs: options.timeouts?.headersMs ?? 300_000,
    idleMs: options.timeouts?.idleMs ?? 300_000,
    keepAliveMs: options.timeouts?.keepAliveMs ?? 2_000,
    connections: options.connections ?? 256,
    limits: {
      maxEventBytes: options.limits?.maxEventBytes ?? DEFAULT_LIMITS.maxEventBytes,
      maxJsonBytes: options.limits?.maxJsonBytes ?? DEFAULT_LIMITS.maxJsonBytes,
      maxReplyBytes: options.limits?.maxReplyBytes ?? DEFAULT_LIMITS.maxReplyBytes,
    },
    logger: options.logger,
    label: `${base.origin}${basePath} (${options.model})`,
  };
}
