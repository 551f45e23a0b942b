/**
 * The chat-engine seam (docs/architecture.md, "Seams"). Engines know their backend and nothing above them: they take
 * an engine-neutral request and yield typed stream parts; the SSE encoder and the non-stream folder
 * live above and never branch on which engine produced the parts.
 */

import type { CancelSignal } from '../../util/cancel-signal.js';

export type JsonSchema = { [key: string]: unknown };

export interface TextPart {
  type: 'text';
  text: string;
}
export interface ImagePart {
  type: 'image_url';
  image_url: { url: string };
}
export interface VideoPart {
  type: 'video_url';
  video_url: { url: string };
}
export interface FilePart {
  type: 'file_url';
  file_url: { url: string };
}
export type UserContentPart = TextPart | ImagePart | VideoPart | FilePart;

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string /** JSON text, as the API carries it. */; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | UserContentPart[] }
  | { role: 'assistant'; content?: string; reasoning_content?: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string };

export interface FunctionTool {
  name: string;
  description?: string;
  parameters?: JsonSchema;
}

export interface SamplingOptions {
  temperature: number;
  topP: number;
  /** Sample among the K most likely tokens only (absent or undefined: no such cut); engines whose backend takes it apply it. */
  topK?: number | undefined;
  /** `do_sample: false`: always take the most likely token. */
  greedy: boolean;
  /** Absent or undefined: the engine picks one. */
  seed?: number | undefined;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools: FunctionTool[];
  sampling: SamplingOptions;
  /** Already resolved against the model's ceiling; the engine stops with `length` when reached. */
  maxTokens: number;
  stop: string[];
  responseFormat: 'text' | 'json_object';
  /** Whether the model should think before answering (ignored by engines without the capability). */
  thinking: boolean;
  /**
   * `false` when the client takes the reply whole: an engine may then fetch it whole too (one JSON
   * body instead of a stream to parse). The parts yielded are the same either way. Default true.
   */
  stream?: boolean;
  /**
   * The W3C trace context of this call when tracing is on: an engine that calls a server sends it as
   * the `traceparent` header, so the server's spans join the platform's trace.
   */
  traceparent?: string | undefined;
  /**
   * Whose request this is, as an opaque string (the platform passes the API key's id; engines never
   * interpret it): where requests wait for a shared resource, tenants are served in turn. Unset:
   * the request waits in one lane shared by every other request without a tenant.
   */
  tenant?: string | undefined;
  /**
   * Which tools the model must use: `auto` (default: any or none), `required` (at least one call)
   * or one function by name. Engines whose capabilities lack `toolChoice` are only ever asked `auto`.
   */
  toolChoice?: ToolChoice | undefined;
  /** False: at most one tool call in the reply. Default true. */
  parallelToolCalls?: boolean | undefined;
  /** With `responseFormat: 'json_object'`: the JSON Schema the reply follows. */
  jsonSchema?: JsonSchema | undefined;
  /**
   * Where an engine says how far it got with the prompt before the reply's first part: called when
   * the prompt is handed over for evaluation and as the evaluation progresses. A generation cut short
   * before its first part is billed from this (services/chat/metered-parts.ts).
   */
  onPrompt?: ((progress: PromptProgress) => void) | undefined;
}

/**
 * How far an engine got with a prompt. `tokens`: its length, where the engine tokenized it;
 * `evaluated`: how many of them are in the model's state so far, where the engine knows; `cached`:
 * of those, how many it reused rather than evaluated. `{}`: a server that counts the prompt itself
 * has taken it.
 */
export interface PromptProgress {
  tokens?: number | undefined;
  evaluated?: number | undefined;
  cached?: number | undefined;
}

export type ToolChoice = 'auto' | 'required' | { name: string };

export type FinishReason =
  | 'stop'
  | 'length'
  | 'tool_calls'
  | 'sensitive'
  | 'network_error'
  | 'model_context_window_exceeded';

export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from a reused prefix (KV cache) rather than evaluated again. */
  cachedTokens: number;
  reasoningTokens: number;
}

export type ChatStreamPart =
  | { type: 'reasoning-delta'; text: string }
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  | { type: 'tool-call-end'; index: number }
  | { type: 'finish'; reason: FinishReason; usage: ChatUsage };

export interface ChatEngineCapabilities {
  tools: boolean;
  thinking: boolean;
  json: boolean;
  vision: boolean;
  /** Context window in tokens of this deployment. */
  maxContext: number;
  /** Largest completion this deployment can produce. */
  maxOutput: number;
}

/** What an engine can say about its load, for metrics (read at scrape time, never per request). */
export interface ChatEngineStats {
  /** Requests generating now. */
  inFlight: number;
  /** Requests waiting for a free sequence or deployment. */
  waiting: number;
  /** False while the engine (or every deployment of a pool) is known to be failing. */
  healthy: boolean;
}

/**
 * What `generate()` returns: the reply's parts, in order. Async generators are part streams as
 * they stand.
 */
export type PartStream = AsyncIterable<ChatStreamPart>;

export type PartIterator = AsyncIterator<ChatStreamPart>;

export interface ChatEngine {
  readonly capabilities: ChatEngineCapabilities;
  /** Load and health, for engines that keep count (optional: metrics skip those that do not). */
  stats?(): ChatEngineStats;
  /**
   * Generates one reply. Aborting `signal` stops generation promptly and ends the iterator.
   * Failures before the first part throw an ApiError (1234 backend failure, 1305 queue full, 1261
   * prompt too long); failures after it also throw, and the caller turns them into `network_error`.
   */
  generate(request: ChatRequest, signal: CancelSignal): PartStream;
  /**
   * Prompt tokens of these messages and tools, with the model's own tokenizer and chat template.
   * Aborting `signal` ends a count that waits on a server promptly, with the signal's reason (a
   * count made in the process may finish instead).
   */
  countTokens(messages: ChatMessage[], tools: FunctionTool[], signal?: CancelSignal): Promise<number>;
  close(): Promise<void>;
}
