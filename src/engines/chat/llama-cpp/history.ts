import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, ChatModelResponse } from 'node-llama-cpp';
import type { ChatMessage, FunctionTool, UserContentPart } from '../types.js';

/** Tool results come back as text; JSON text is passed as a value so the template renders it as JSON. */
function toolResultValue(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

function parseArguments(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    // Models (or clients) sometimes send arguments that are not JSON; keep the text as is.
    return args;
  }
}

const userText = (content: string | UserContentPart[]): string =>
  typeof content === 'string'
    ? content
    : content
        .filter((p) => p.type === 'text')
        .map((p) => p.text)
        .join('\n');

/**
 * Maps the API's messages to node-llama-cpp's chat history, which the model's own chat template
 * renders. Tool results are attached to the call they answer (node-llama-cpp keeps a call and its
 * result together). The history ends with the model response to complete: a fresh empty one after
 * a user turn, or the last response holding the calls whose results were just given.
 */
export function toChatHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  const pendingCalls = new Map<string, ChatModelFunctionCall>();
  let lastCalls: ChatModelFunctionCall[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        history.push({ type: 'system', text: m.content });
        break;
      case 'user':
        history.push({ type: 'user', text: userText(m.content) });
        break;
      case 'assistant': {
        const response: ChatModelResponse['response'] = [];
        if (m.reasoning_content) {
          response.push({ type: 'segment', segmentType: 'thought', text: m.reasoning_content, ended: true });
        }
        if (m.content) response.push(m.content);
        lastCalls = [];
        for (const call of m.tool_calls ?? []) {
          const item: ChatModelFunctionCall = {
            type: 'functionCall',
            name: call.function.name,
            params: parseArguments(call.function.arguments),
            result: undefined,
          };
          pendingCalls.set(call.id, item);
          lastCalls.push(item);
          response.push(item);
        }
        history.push({ type: 'model', response });
        break;
      }
      case 'tool': {
        // Match by id; fall back to the first unanswered call of the last assistant turn.
        const call = pendingCalls.get(m.tool_call_id) ?? lastCalls.find((c) => c.result === undefined);
        if (call !== undefined) {
          call.result = toolResultValue(m.content);
          pendingCalls.delete(m.tool_call_id);
        } else {
          history.push({ type: 'user', text: m.content });
        }
        break;
      }
    }
  }
  const last = messages.at(-1);
  if (last?.role !== 'tool' && last?.role !== 'assistant') history.push({ type: 'model', response: [] });
  return history;
}

export function toFunctions(tools: readonly FunctionTool[]): ChatModelFunctions | undefined {
  if (tools.length === 0) return undefined;
  const functions: Record<string, ChatModelFunctions[string]> = {};
  for (const t of tools) {
    functions[t.name] = {
      ...(t.description === undefined ? {} : { description: t.description }),
      // The schema is the API's JSON Schema; node-llama-cpp turns it into a grammar.
      ...(t.parameters === undefined ? {} : { params: t.parameters as ChatModelFunctions[string]['params'] }),
    };
  }
  return functions;
}
