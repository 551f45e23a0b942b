import type { ChatCompletionBody } from '../../api/chat.js';
import type {
  ChatEngineCapabilities,
  ChatMessage,
  ChatRequest,
  FunctionTool,
  UserContentPart,
} from '../../engines/chat/types.js';
import { invalidField } from '../../errors/errors.js';
import type { ChatModelSpec } from '../../models/catalogue.js';

/**
 * What other wires than chat completions ask of a turn beyond the chat body (the Responses API's
 * `tool_choice`, `parallel_tool_calls` and `text.format` schema).
 */
export type TurnOptions = Pick<ChatRequest, 'toolChoice' | 'parallelToolCalls' | 'jsonSchema'> & {
  /** Another wire's `top_k` (the chat API has none). */
  topK?: number | undefined;
};

type BodyMessage = ChatCompletionBody['messages'][number];

const asArguments = (args: string | Record<string, unknown>) =>
  typeof args === 'string' ? args : JSON.stringify(args);

/**
 * The API's messages as the engine takes them: tool-call arguments as JSON text, and earlier
 * turns' reasoning dropped unless `clear_thinking` is false (docs/wire.md, "Chat completions").
 */
export function mapMessages(messages: BodyMessage[], keepReasoning: boolean, vision: boolean): ChatMessage[] {
  return messages.map((m, i): ChatMessage => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'tool':
        return { role: 'tool', content: m.content, tool_call_id: m.tool_call_id };
      case 'user':
        if (typeof m.content !== 'string' && !vision) {
          const j = m.content.findIndex((item) => item.type !== 'text');
          if (j >= 0)
            throw invalidField(
              `messages[${i}].content[${j}]`,
              `this model does not accept ${m.content[j]!.type} input`,
            );
        }
        return { role: 'user', content: m.content as string | UserContentPart[] };
      default: {
        const out: ChatMessage = { role: 'assistant' };
        if (m.content !== undefined) out.content = m.content;
        if (keepReasoning && m.reasoning_content) out.reasoning_content = m.reasoning_content;
        if (m.tool_calls?.length) {
          out.tool_calls = m.tool_calls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.function.name, arguments: asArguments(c.function.arguments) },
          }));
        }
        return out;
      }
    }
  });
}

export function functionTools(offered: ChatCompletionBody['tools']): FunctionTool[] {
  const tools: FunctionTool[] = [];
  for (const tool of offered ?? []) {
    if (tool.type !== 'function') continue;
    const { name, description, parameters } = tool.function;
    tools.push({ name, description, ...(parameters ? { parameters } : {}) });
  }
  return tools;
}

function thinkingOn(body: ChatCompletionBody, spec: ChatModelSpec): boolean {
  if (!spec.thinking || body.thinking?.type === 'disabled') return false;
  const effort = body.reasoning_effort;
  return !(spec.reasoningEffort && (effort === 'none' || effort === 'minimal'));
}

/** A validated request body as the engine's request, with the model's defaults applied. */
export function mapChatRequest(
  body: ChatCompletionBody & { seed?: unknown },
  spec: ChatModelSpec,
  capabilities: ChatEngineCapabilities,
  tenant: string,
  options: TurnOptions = {},
): ChatRequest {
  const stop = body.stop === undefined ? [] : typeof body.stop === 'string' ? [body.stop] : body.stop;
  const seed = typeof body.seed === 'number' && Number.isInteger(body.seed) ? body.seed : undefined;
  // One literal of fixed shape: a rest and a spread here cost more than the rest of the mapping.
  return {
    messages: mapMessages(body.messages, body.thinking?.clear_thinking === false, capabilities.vision),
    tools: functionTools(body.tools),
    sampling: {
      temperature: body.temperature ?? spec.temperature,
      topP: body.top_p ?? spec.topP,
      greedy: body.do_sample === false,
      seed,
      topK: options.topK,
    },
    maxTokens: Math.min(body.max_tokens ?? spec.maxOutput, capabilities.maxOutput),
    stop: stop.filter((s) => s.length > 0),
    responseFormat: body.response_format?.type === 'json_object' ? 'json_object' : 'text',
    thinking: thinkingOn(body, spec) && capabilities.thinking,
    stream: body.stream === true,
    tenant,
    toolChoice: options.toolChoice,
    parallelToolCalls: options.parallelToolCalls,
    jsonSchema: options.jsonSchema,
  };
}
