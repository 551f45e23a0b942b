import type { ChatCompletionBody } from '../../api/chat.js';
import type { InputItem, ResponseCreateBody, ResponseToolParam } from '../../api/responses.js';
import { invalidField, missingField } from '../../errors/errors.js';
import type { ChatModelSpec } from '../../models/catalogue.js';
import type { TurnOptions } from '../chat/chat-service.js';
import { CUSTOM_TOOL_ARGUMENT, itemsToMessages } from './input-items.js';
import { type ClientTool, type ClientTools, chatToolName } from './tool-names.js';

type ChatTool = NonNullable<ChatCompletionBody['tools']>[number];
type BodyMessage = ChatCompletionBody['messages'][number];

/** A Responses request as a chat completion: the body the chat service takes, and what the body cannot say. */
export interface ChatTurn {
  body: ChatCompletionBody;
  options: TurnOptions;
  /** The function and custom tools by the name the model calls them (namespaced ones apart). */
  tools: ClientTools;
  /** The `web_search` tool, when given: offered to the model as a function it may call. */
  webSearch: WebSearchTurn | undefined;
  /** The conversation the response answers, as input items (what a continuation starts from). */
  conversation: InputItem[];
}

type ChatWebSearch = Extract<ChatTool, { type: 'web_search' }>['web_search'];

/**
 * The `web_search` tool as the model sees it: a function it calls when it wants a search. The
 * server runs that search, then the model again with the results in its prompt (responses-search.ts).
 */
export const WEB_SEARCH_FUNCTION = 'web_search';
const WEB_SEARCH_TOOL: ChatTool = {
  type: 'function',
  function: {
    name: WEB_SEARCH_FUNCTION,
    description:
      'Search the web for current information. Call it only when the answer needs facts you do not have; the results come back before you answer.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to search for, as a search engine query' } },
      required: ['query'],
    },
  },
};

export interface WebSearchTurn {
  /** The chat service's web_search tool settings, but the query (the model's). */
  settings: Omit<ChatWebSearch, 'search_query'>;
  /** The query when the model's call names none: the start of the user's last message. */
  fallbackQuery: string;
}

/** The `text.format` of a request: JSON modes map onto the chat service's guaranteed JSON. */
function formatOptions(body: ResponseCreateBody): Pick<ChatCompletionBody, 'response_format'> & TurnOptions {
  const format = body.text?.format;
  if (format?.type === 'json_object') return { response_format: { type: 'json_object' } };
  if (format?.type === 'json_schema') {
    return { response_format: { type: 'json_object' }, jsonSchema: format.schema as Record<string, unknown> };
  }
  return {};
}

const lastUserText = (messages: readonly BodyMessage[]): string => {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  }
  return '';
};

/** Longest query sent to the search service. */
const MAX_QUERY_CHARS = 500;

function chatTools(
  tools: readonly ResponseToolParam[],
  messages: readonly BodyMessage[],
): { tools: ChatTool[]; client: Map<string, ClientTool>; search: WebSearchTurn | undefined } {
  const out: ChatTool[] = [];
  const client = new Map<string, ClientTool>();
  let search: WebSearchTurn | undefined;
  const add = (tool: FunctionOrCustom, namespace: string | undefined, prefix: string) => {
    const name = chatToolName(tool.name, namespace);
    if (client.has(name) || (search !== undefined && name === WEB_SEARCH_FUNCTION))
      throw invalidField('tools', `two tools are named ${name}`);
    client.set(name, { name: tool.name, custom: tool.type === 'custom', ...(namespace ? { namespace } : {}) });
    const description = [prefix, tool.description ?? ''].filter((d) => d !== '').join('\n\n');
    const parameters = parametersOf(tool);
    out.push({ type: 'function', function: { name, description, ...(parameters ? { parameters } : {}) } });
  };
  tools.forEach((tool, i) => {
    switch (tool.type) {
      case 'function':
      case 'custom':
        add(tool, undefined, '');
        break;
      case 'namespace':
        for (const inner of tool.tools) add(inner, tool.name, tool.description ?? '');
        break;
      case 'web_search':
      case 'web_search_preview':
      case 'web_search_2025_08_26':
      case 'web_search_preview_2025_03_11': {
        if (search !== undefined) throw invalidField(`tools[${i}]`, 'only one web search tool may be given');
        if (client.has(WEB_SEARCH_FUNCTION)) throw invalidField('tools', `two tools are named ${WEB_SEARCH_FUNCTION}`);
        const domains = tool.filters?.allowed_domains ?? [];
        if (domains.length > 1) {
          throw invalidField(`tools[${i}].filters.allowed_domains`, 'the search here filters on one domain at most');
        }
        search = {
          settings: {
            search_result: true,
            count: tool.search_context_size === 'low' ? 5 : tool.search_context_size === 'high' ? 20 : 10,
            content_size: tool.search_context_size === 'high' ? 'high' : 'medium',
            ...(domains[0] ? { search_domain_filter: domains[0] } : {}),
          },
          fallbackQuery: lastUserText(messages).slice(0, MAX_QUERY_CHARS),
        };
        out.push(WEB_SEARCH_TOOL);
        break;
      }
      default:
        throw invalidField(`tools[${i}].type`, unservedTool(tool.type));
    }
  });
  return { tools: out, client, search };
}

/**
 * Why a tool type is refused. `local_shell`, `shell` and `apply_patch` run on the client, but
 * their calls come from models trained on them: a client offers them here as function or custom
 * tools (Codex does for a model it does not know).
 */
function unservedTool(type: string): string {
  if (type === 'local_shell' || type === 'shell' || type === 'apply_patch') {
    return `the ${type} tool is built into OpenAI's own models only: offer it as a function or custom tool`;
  }
  return `the ${type} tool is one of OpenAI's hosted tools, which this server does not run`;
}

type FunctionOrCustom = Extract<ResponseToolParam, { type: 'namespace' }>['tools'][number];

/** A function's own parameters; a custom tool's one free-form string. */
function parametersOf(tool: FunctionOrCustom): Record<string, unknown> | undefined {
  if (tool.type === 'function') return tool.parameters;
  return {
    type: 'object',
    properties: { [CUSTOM_TOOL_ARGUMENT]: { type: 'string', description: 'The tool input, as free-form text' } },
    required: [CUSTOM_TOOL_ARGUMENT],
  };
}

/** `tool_choice`, checked against the tools given; `none` leaves the model no tools at all. */
function toolChoiceOptions(body: ResponseCreateBody, tools: ChatTool[]): { tools: ChatTool[]; options: TurnOptions } {
  const choice = body.tool_choice;
  if (choice === undefined || choice === 'auto') return { tools, options: {} };
  if (choice === 'none') return { tools: [], options: {} };
  const functions = tools.filter((t) => t.type === 'function');
  if (choice === 'required') {
    if (functions.length === 0)
      throw invalidField('tool_choice', '"required" needs at least one function or custom tool');
    return { tools, options: { toolChoice: 'required' } };
  }
  const namespace = (choice as { namespace?: unknown }).namespace;
  const name = chatToolName(choice.name, typeof namespace === 'string' ? namespace : undefined);
  if (!functions.some((t) => t.type === 'function' && t.function.name === name)) {
    throw invalidField('tool_choice.name', `no ${choice.type} tool named ${choice.name} is given in tools`);
  }
  return { tools, options: { toolChoice: { name } } };
}

/** Thinking follows `reasoning.effort`: `none` and `minimal` turn it off. */
function reasoningFields(
  body: ResponseCreateBody,
  spec: ChatModelSpec,
): Pick<ChatCompletionBody, 'thinking' | 'reasoning_effort'> {
  const effort = body.reasoning?.effort;
  if (effort === undefined) return {};
  if (effort === 'none' || effort === 'minimal') return { thinking: { type: 'disabled' } };
  return spec.reasoningEffort
    ? { thinking: { type: 'enabled' }, reasoning_effort: effort }
    : { thinking: { type: 'enabled' } };
}

/**
 * The chat completion a Responses request asks for, on top of `previous`, the conversation of the
 * response it continues. Refuses, naming the field, what the chat service cannot serve.
 */
export function mapResponsesRequest(
  body: ResponseCreateBody,
  spec: ChatModelSpec,
  previous: readonly InputItem[],
): ChatTurn {
  const own: InputItem[] =
    body.input === undefined
      ? []
      : typeof body.input === 'string'
        ? [{ type: 'message', role: 'user', content: body.input }]
        : body.input;
  if (own.length === 0 && previous.length === 0) throw missingField('input');
  const conversation = [...previous, ...own];
  const messages = itemsToMessages(conversation, (i) =>
    i < previous.length ? `the conversation of previous_response_id (item ${i})` : `input[${i - previous.length}]`,
  );
  if (body.instructions !== undefined && body.instructions !== '') {
    messages.unshift({ role: 'system', content: body.instructions });
  }
  if (!messages.some((m) => m.role !== 'system')) {
    throw invalidField('input', 'must hold a user message, not only instructions, system or developer messages');
  }
  if (body.max_output_tokens !== undefined && body.max_output_tokens > spec.maxOutput) {
    throw invalidField('max_output_tokens', `must be at most ${spec.maxOutput} for ${body.model}`);
  }
  if (body.background === true)
    throw invalidField(
      'background',
      'background responses are not served here: send the request and read its reply or stream',
    );
  if ((body.top_logprobs ?? 0) > 0) throw invalidField('top_logprobs', 'log probabilities are not produced here');
  const given = chatTools(body.tools ?? [], messages);
  const choice = toolChoiceOptions(body, given.tools);
  const { response_format, ...formatTurn } = formatOptions(body);
  const chatBody: ChatCompletionBody = {
    model: body.model,
    messages,
    stream: body.stream === true,
    ...reasoningFields(body, spec),
    ...(body.temperature === undefined ? {} : { temperature: body.temperature }),
    ...(body.top_p === undefined ? {} : { top_p: body.top_p }),
    ...(body.max_output_tokens === undefined ? {} : { max_tokens: body.max_output_tokens }),
    ...(choice.tools.length > 0 ? { tools: choice.tools } : {}),
    ...(response_format ? { response_format } : {}),
  };
  return {
    body: chatBody,
    options: {
      ...choice.options,
      ...formatTurn,
      ...(body.parallel_tool_calls === false ? { parallelToolCalls: false } : {}),
    },
    tools: given.client,
    webSearch: choice.tools.includes(WEB_SEARCH_TOOL) ? given.search : undefined,
    conversation,
  };
}

/**
 * The chat body that answers after the model asked for a search: the web_search function gone (one
 * search a response), the chat service's web_search tool running `query` and putting what it finds
 * in the prompt (docs/wire.md, "Chat completions").
 */
export function afterSearchBody(turn: ChatTurn, search: WebSearchTurn, query: string): ChatCompletionBody {
  const tools = (turn.body.tools ?? []).filter((t) => t !== WEB_SEARCH_TOOL);
  return {
    ...turn.body,
    tools: [
      ...tools,
      { type: 'web_search', web_search: { ...search.settings, search_query: query.slice(0, MAX_QUERY_CHARS) } },
    ],
  };
}
