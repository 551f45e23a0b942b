import type { ChatMessage, ChatRequest, FunctionTool, JsonSchema } from '../types.js';
import type { ResolvedOptions } from './options.js';

type WireMessage = Record<string, unknown>;

function toWireMessage(message: ChatMessage, reasoningField: ResolvedOptions['reasoningField']): WireMessage {
  if (message.role !== 'assistant') return message;
  const wire: WireMessage = { role: 'assistant', content: message.content ?? '' };
  if (message.tool_calls !== undefined && message.tool_calls.length > 0) {
    wire['tool_calls'] = message.tool_calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.function.name, arguments: call.function.arguments },
    }));
  }
  if (message.reasoning_content && reasoningField !== 'none') wire[reasoningField] = message.reasoning_content;
  return wire;
}

function toWireTools(tools: FunctionTool[]): unknown[] {
  return tools.map((tool) => {
    const fn: Record<string, unknown> = { name: tool.name };
    if (tool.description !== undefined) fn['description'] = tool.description;
    fn['parameters'] = tool.parameters ?? { type: 'object', properties: {} };
    return { type: 'function', function: fn };
  });
}

/** Messages, tools and the thinking switch: the part of a body that decides the prompt's tokens. */
export function promptFields(
  options: ResolvedOptions,
  messages: ChatMessage[],
  tools: FunctionTool[],
  thinking: boolean,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: options.model,
    messages: messages.map((m) => toWireMessage(m, options.reasoningField)),
  };
  if (tools.length > 0) body['tools'] = toWireTools(tools);
  if (options.capabilities.thinking) {
    const control = options.thinking;
    if (control.chatTemplateKwargs) body['chat_template_kwargs'] = { enable_thinking: thinking };
    const effort = thinking ? control.reasoningEffort?.enabled : control.reasoningEffort?.disabled;
    if (effort !== undefined) body['reasoning_effort'] = effort;
  }
  return body;
}

/** The upstream's `/chat/completions` body for one request, serialised once; `stream` as the call will read it. */
export function buildChatBody(options: ResolvedOptions, request: ChatRequest, stream = options.stream): string {
  const body = promptFields(options, request.messages, request.tools, request.thinking);
  const { sampling } = request;
  // Greedy is temperature 0 on every OpenAI-style server; top_p is then irrelevant.
  body['temperature'] = sampling.greedy ? 0 : sampling.temperature;
  if (!sampling.greedy) body['top_p'] = sampling.topP;
  // vLLM, SGLang and llama.cpp's server take top_k beside the OpenAI fields; sent only when asked.
  if (!sampling.greedy && sampling.topK !== undefined) body['top_k'] = sampling.topK;
  if (sampling.seed !== undefined) body['seed'] = sampling.seed;
  body[options.maxTokensField] = request.maxTokens;
  if (request.stop.length > 0) body['stop'] = request.stop;
  if (request.responseFormat === 'json_object') {
    body['response_format'] = jsonResponseFormat(options.jsonMode, request.jsonSchema);
  }
  if (request.tools.length > 0) {
    const choice = request.toolChoice ?? 'auto';
    if (choice !== 'auto') {
      body['tool_choice'] = choice === 'required' ? 'required' : { type: 'function', function: { name: choice.name } };
    }
    if (request.parallelToolCalls === false) body['parallel_tool_calls'] = false;
  }
  if (stream) {
    body['stream'] = true;
    body['stream_options'] = { include_usage: true };
  } else {
    body['stream'] = false;
  }
  if (options.extraBody !== undefined) Object.assign(body, options.extraBody);
  return JSON.stringify(body);
}

/**
 * JSON mode as the upstream honours it. `json_schema` (the request's schema, else an open object)
 * holds on vLLM, SGLang, llama.cpp server (which ignores a bare `json_object`), Ollama and hosted
 * APIs; `json_object` for servers that know only that form (the reply is still checked to parse).
 */
function jsonResponseFormat(
  mode: ResolvedOptions['jsonMode'],
  schema: JsonSchema | undefined,
): Record<string, unknown> {
  if (mode === 'json_object') return { type: 'json_object' };
  if (schema !== undefined) return { type: 'json_schema', json_schema: { name: 'reply', schema, strict: true } };
  return { type: 'json_schema', json_schema: { name: 'json_object', schema: { type: 'object' } } };
}
