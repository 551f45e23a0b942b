/** Shapes of what OpenAI-style servers send back; every field optional, because they differ. */

export interface WireToolCall {
  index?: number;
  id?: string | null;
  type?: string;
  function?: { name?: string | null; arguments?: string | null } | null;
}

/** A stream `delta` or a whole reply's `message`: the same fields either way. */
export interface WireDelta {
  role?: string;
  content?: string | null;
  /** vLLM before 0.10, DeepSeek, SGLang. */
  reasoning_content?: string | null;
  /** Ollama, recent vLLM, OpenRouter. */
  reasoning?: string | null;
  tool_calls?: WireToolCall[] | null;
}

export interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

export interface WireChoice {
  index?: number;
  delta?: WireDelta | null;
  message?: WireDelta | null;
  finish_reason?: string | null;
}

export interface WireChunk {
  choices?: WireChoice[] | null;
  usage?: WireUsage | null;
  /** Upstreams report failures after the 200 inside the stream, as `{error: {...}}`. */
  error?: unknown;
  object?: string;
  message?: string;
}
