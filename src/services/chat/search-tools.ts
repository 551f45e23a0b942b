import type { ChatCompletionBody } from '../../api/chat.js';
import type { SearchResultEntry } from '../../search/result-entry.js';
import type { CallMeter } from '../billing/call-meter.js';
import { priceCall } from '../billing/priced-call.js';
import { type Caller, mayRead } from '../search/collection-access.js';
import type { SearchService } from '../search/search-service.js';
import {
  checkPromptFits,
  checkTemplate,
  countPlaceholders,
  type PromptBounds,
  promptCharLimit,
  promptTooLong,
} from './prompt-bounds.js';

type BodyMessage = ChatCompletionBody['messages'][number];
type Tool = NonNullable<ChatCompletionBody['tools']>[number];
type WebSearchTool = Extract<Tool, { type: 'web_search' }>['web_search'];
type RetrievalTool = Extract<Tool, { type: 'retrieval' }>['retrieval'];

export interface SearchAugmentation {
  messages: BodyMessage[];
  /** Results to return to the client (`search_result: true`). */
  webSearch: SearchResultEntry[] | undefined;
  sequence: 'before' | 'after';
}

const DEFAULT_SEARCH_PROMPT =
  'Web search results for the conversation below. Use them when they help, and cite them as [ref_N].\n\n{search_result}';
const NO_RESULTS_PROMPT =
  'A web search found no results for this question. Say that you could not find information on it rather than guessing.';
const DEFAULT_RETRIEVAL_TEMPLATE =
  'Answer the question using the knowledge below. If it does not contain the answer, say so.\n\nKnowledge:\n"""\n{{knowledge}}\n"""\n\nQuestion:\n"""\n{{question}}\n"""';

function lastUserIndex(messages: BodyMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return i;
  return -1;
}

function textOf(message: BodyMessage | undefined): string {
  if (message?.role !== 'user') return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
}

function formatResults(results: SearchResultEntry[]): string {
  return results
    .map((r) => `[${r.refer}] ${r.title}\n${r.link}${r.publish_date ? ` (${r.publish_date})` : ''}\n${r.content}`)
    .join('\n\n');
}

/** The live platform's `{search_result}` and the `{{search_result}}` form. */
const SEARCH_PLACEHOLDER = /\{\{?search_result\}?\}/g;
const RETRIEVAL_PLACEHOLDER = /\{\{(knowledge|question)\}\}/g;

/** The prompt's size once filled, known before the string is built. */
function searchPromptChars(template: string, results: string): number {
  const slots = [...template.matchAll(SEARCH_PLACEHOLDER)];
  if (slots.length === 0) return template.length + 2 + results.length;
  return template.length + slots.reduce((n, m) => n + results.length - m[0].length, 0);
}

function fillSearchPrompt(template: string, results: string): string {
  const filled = template.replace(SEARCH_PLACEHOLDER, () => results);
  return filled === template ? `${template}\n\n${results}` : filled;
}

/** What the prompt may still grow by: the model's limit less the messages and tools the client sent. */
interface Room {
  chars: number;
  maxContext: number;
  bounds: PromptBounds;
  /** Characters of the prompt as sent (messages and function tools), then as grown. */
  base: number;
}

function ensureRoom(room: Room, added: number, what: string): void {
  if (room.base + added > room.chars) throw promptTooLong(room.base + added, room.maxContext, room.bounds, what);
}

/** The templates' length and placeholder caps (1214 naming the tool's field), before any search runs. */
export function checkSearchTemplates(body: ChatCompletionBody, bounds: PromptBounds): void {
  body.tools?.forEach((tool, i) => {
    if (tool.type === 'retrieval' && tool.retrieval.prompt_template !== undefined) {
      checkTemplate(
        tool.retrieval.prompt_template,
        `tools[${i}].retrieval.prompt_template`,
        RETRIEVAL_PLACEHOLDER,
        bounds,
      );
    } else if (tool.type === 'web_search' && tool.web_search.search_prompt !== undefined) {
      checkTemplate(tool.web_search.search_prompt, `tools[${i}].web_search.search_prompt`, SEARCH_PLACEHOLDER, bounds);
    }
  });
}

function withSystemText(messages: BodyMessage[], text: string): BodyMessage[] {
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${text}` }, ...rest];
  return [{ role: 'system', content: text }, ...messages];
}

async function webSearch(
  messages: BodyMessage[],
  tool: WebSearchTool,
  search: SearchService,
  room: Room,
  meter: CallMeter | undefined,
) {
  const query = tool.search_query || textOf(messages[lastUserIndex(messages)]);
  if (!query.trim()) return { messages, results: [] as SearchResultEntry[] };
  // A search the tool runs costs what a call of the web_search operation costs: reserved before it
  // runs (1113 when it does not fit), billed with the completion's record.
  if (meter !== undefined) await priceCall(meter, 'web_search');
  const results = await search.search(
    {
      engine: tool.search_engine ?? 'search-prime',
      query,
      count: tool.count ?? 10,
      domain: tool.search_domain_filter,
      recency: tool.search_recency_filter,
    },
    true,
  );
  if (results.length === 0)
    return { messages: tool.require_search ? withSystemText(messages, NO_RESULTS_PROMPT) : messages, results };
  const template = tool.search_prompt ?? DEFAULT_SEARCH_PROMPT;
  const found = formatResults(results);
  const added = searchPromptChars(template, found);
  ensureRoom(room, added, 'The prompt with the web search results');
  room.base += added;
  return { messages: withSystemText(messages, fillSearchPrompt(template, found)), results };
}

/** The filled template's size, from the placeholder counts: known before the string is built. */
function retrievalChars(template: string, knowledge: number, question: number): number {
  const k = countPlaceholders(template, /\{\{knowledge\}\}/g);
  const q = countPlaceholders(template, /\{\{question\}\}/g);
  return template.length + k * (knowledge - '{{knowledge}}'.length) + q * (question - '{{question}}'.length);
}

async function retrieval(
  messages: BodyMessage[],
  tool: RetrievalTool,
  search: SearchService,
  room: Room,
  caller: Caller | undefined,
): Promise<BodyMessage[]> {
  const at = lastUserIndex(messages);
  const question = textOf(messages[at]);
  if (at < 0 || !question.trim()) return messages;
  const template = tool.prompt_template ?? DEFAULT_RETRIEVAL_TEMPLATE;
  const what = 'The retrieval prompt (prompt_template filled)';
  // The question replaces itself: the template adds the rest.
  ensureRoom(room, retrievalChars(template, 0, question.length) - question.length, what);
  // A collection the caller may not read answers as one that does not exist: no passages.
  const readable = await mayRead(search.index, tool.knowledge_id, caller);
  const hits = readable ? await search.index.query({ text: question, count: 5, collections: [tool.knowledge_id] }) : [];
  const knowledge = hits.map((h) => `${h.title}\n${h.snippet}`).join('\n\n');
  const added = retrievalChars(template, knowledge.length, question.length) - question.length;
  ensureRoom(room, added, what);
  room.base += added;
  const content = template.replace(RETRIEVAL_PLACEHOLDER, (_, name: string) =>
    name === 'knowledge' ? knowledge : question,
  );
  return messages.map((m, i) => (i === at ? { role: 'user', content } : m));
}

/**
 * The web_search and retrieval tools of docs/wire.md, "Chat completions": the server searches its own index (or the
 * configured engine) and puts what it found into the prompt before the model runs.
 */
/** Whether `applySearchTools` has anything to do for this body. */
export function hasSearchTool(body: ChatCompletionBody): boolean {
  const tools = body.tools;
  if (tools === undefined) return false;
  for (const tool of tools) if (tool.type === 'web_search' || tool.type === 'retrieval') return true;
  return false;
}

/**
 * `maxContext` is the serving model's context window: a prompt the tools would grow past what it
 * can hold (chat.max_chars_per_token) is refused with 1261 before it is built. Each web search run
 * is priced as a `web_search` call on `meter` (when the request is metered). A retrieval reads only a
 * collection `caller` may read (collection-access.ts).
 */
export async function applySearchTools(
  body: ChatCompletionBody,
  search: SearchService,
  bounds: PromptBounds,
  maxContext: number,
  meter?: CallMeter,
  caller?: Caller,
): Promise<SearchAugmentation> {
  checkSearchTemplates(body, bounds);
  // The function tools render into the prompt beside what the searches add: counted from the start.
  const room: Room = {
    chars: promptCharLimit(maxContext, bounds),
    maxContext,
    bounds,
    base: checkPromptFits(body, maxContext, bounds),
  };
  let messages = body.messages;
  let shown: SearchResultEntry[] | undefined;
  let sequence: 'before' | 'after' = 'after';
  for (const tool of body.tools ?? []) {
    if (tool.type === 'web_search' && tool.web_search.enable !== false) {
      const done = await webSearch(messages, tool.web_search, search, room, meter);
      messages = done.messages;
      if (tool.web_search.search_result) shown = [...(shown ?? []), ...done.results];
      sequence = tool.web_search.result_sequence ?? 'after';
    } else if (tool.type === 'retrieval') {
      messages = await retrieval(messages, tool.retrieval, search, room, caller);
    }
  }
  return { messages, webSearch: shown, sequence };
}
