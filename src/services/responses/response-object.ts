import type { ResponseCreateBody } from '../../api/responses.js';
import type { OutputItem, ResponseObject, ResponseUsage } from '../../api/responses-reply.js';
import type { ChatUsage, FinishReason } from '../../engines/chat/types.js';
import type { ChatModelSpec } from '../../models/catalogue.js';

export type ResponseStatus = ResponseObject['status'];

/** How the reply ended, in the Responses API's terms (docs/wire.md, "Responses"). */
export interface Outcome {
  status: ResponseStatus;
  incomplete?: 'max_output_tokens' | 'content_filter';
  error?: { code: string; message: string };
}

/** The engine's finish reason as the response's status. */
export function outcomeOf(reason: FinishReason): Outcome {
  switch (reason) {
    case 'stop':
    case 'tool_calls':
      return { status: 'completed' };
    case 'length':
    case 'model_context_window_exceeded':
      return { status: 'incomplete', incomplete: 'max_output_tokens' };
    case 'sensitive':
      return { status: 'incomplete', incomplete: 'content_filter' };
    case 'network_error':
      return {
        status: 'failed',
        error: { code: 'server_error', message: 'The model stopped without finishing its reply' },
      };
  }
}

export function responseUsage(u: ChatUsage): ResponseUsage {
  return {
    input_tokens: u.promptTokens,
    input_tokens_details: { cached_tokens: u.cachedTokens },
    output_tokens: u.completionTokens,
    output_tokens_details: { reasoning_tokens: u.reasoningTokens },
    total_tokens: u.promptTokens + u.completionTokens,
  };
}

/** What a response says of its request: the same for every event of a stream and the stored copy. */
export type ResponseEcho = Omit<ResponseObject, 'status' | 'error' | 'incomplete_details' | 'output' | 'usage'>;

export function responseEcho(
  body: ResponseCreateBody,
  id: string,
  createdAt: number,
  spec: ChatModelSpec,
  reasoningSummary: string | null,
): ResponseEcho {
  const format = body.text?.format ?? { type: 'text' };
  return {
    id,
    object: 'response',
    created_at: createdAt,
    background: false,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: body.model,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    prompt_cache_key: body.prompt_cache_key ?? null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: reasoningSummary },
    safety_identifier: body.safety_identifier ?? null,
    store: body.store ?? true,
    temperature: body.temperature ?? spec.temperature,
    text: { ...body.text, format },
    tool_choice: body.tool_choice ?? 'auto',
    tools: (body.tools ?? []).map((tool) => ({ ...tool })),
    top_p: body.top_p ?? spec.topP,
    truncation: body.truncation ?? 'disabled',
    user: body.user ?? null,
    metadata: body.metadata ?? {},
  };
}

/** The Response object, its fields in the order the OpenAI API writes them. */
export function responseObject(
  echo: ResponseEcho,
  outcome: Outcome,
  output: OutputItem[],
  usage: ChatUsage | undefined,
): ResponseObject {
  return {
    id: echo.id,
    object: 'response',
    created_at: echo.created_at,
    status: outcome.status,
    background: echo.background,
    error: outcome.error ?? null,
    incomplete_details: outcome.incomplete ? { reason: outcome.incomplete } : null,
    instructions: echo.instructions,
    max_output_tokens: echo.max_output_tokens,
    model: echo.model,
    output,
    parallel_tool_calls: echo.parallel_tool_calls,
    previous_response_id: echo.previous_response_id,
    prompt_cache_key: echo.prompt_cache_key,
    reasoning: echo.reasoning,
    safety_identifier: echo.safety_identifier,
    store: echo.store,
    temperature: echo.temperature,
    text: echo.text,
    tool_choice: echo.tool_choice,
    tools: echo.tools,
    top_p: echo.top_p,
    truncation: echo.truncation,
    usage: usage === undefined ? null : responseUsage(usage),
    user: echo.user,
    metadata: echo.metadata,
  };
}
