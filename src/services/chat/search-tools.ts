import type { ChatCompletionBody } from '../../api/chat.js';
import type { SearchResultEntry } from '../../search/result-entry.js';
import type { SearchService } from '../search/search-service.js';

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

/** Accepts the live platform's `{search_result}` and the `{{search_result}}` form. */
function fillSearchPrompt(template: string, results: string): string {
  const filled = template.replace(/\{\{?search_result\}?\}/g, results);
  return filled === template ? `${template}\n\n${results}` : filled;
}

function withSystemText(messages: BodyMessage[], text: string): BodyMessage[] {
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${text}` }, ...rest];
  return [{ role: 'system', content: text }, ...messages];
}

async function webSearch(messages: BodyMessage[], tool: WebSearchTool, search: SearchService) {
  const query = tool.search_query || textOf(messages[lastUserIndex(messages)]);
  if (!query.trim()) return { messages, results: [] as SearchResultEntry[] };
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
  const prompt = fillSearchPrompt(tool.search_prompt ?? DEFAULT_SEARCH_PROMPT, formatResults(results));
  return { messages: withSystemText(messages, prompt), results };
}

async function retrieval(messages: BodyMessage[], tool: RetrievalTool, search: SearchService): Promise<BodyMessage[]> {
  const at = lastUserIndex(messages);
  const question = textOf(messages[at]);
  if (at < 0 || !question.trim()) return messages;
  const hits = await search.index.query({ text: question, count: 5, collections: [tool.knowledge_id] });
  const knowledge = hits.map((h) => `${h.title}\n${h.snippet}`).join('\n\n');
  const content = (tool.prompt_template ?? DEFAULT_RETRIEVAL_TEMPLATE)
    .replaceAll('{{knowledge}}', knowledge)
    .replaceAll('{{question}}', question);
  return messages.map((m, i) => (i === at ? { role: 'user', content } : m));
}

/**
 * The web_search and retrieval tools of decisions.md §3: the server searches its own index (or the
 * configured engine) and puts what it found into the prompt before the model runs.
 */
/** Whether `applySearchTools` has anything to do for this body. */
export function hasSearchTool(body: ChatCompletionBody): boolean {
  const tools = body.tools;
  if (tools === undefined) return false;
  for (const tool of tools) if (tool.type === 'web_search' || tool.type === 'retrieval') return true;
  return false;
}

export async function applySearchTools(body: ChatCompletionBody, search: SearchService): Promise<SearchAugmentation> {
  let messages = body.messages;
  let shown: SearchResultEntry[] | undefined;
  let sequence: 'before' | 'after' = 'after';
  for (const tool of body.tools ?? []) {
    if (tool.type === 'web_search' && tool.web_search.enable !== false) {
      const done = await webSearch(messages, tool.web_search, search);
      messages = done.messages;
      if (tool.web_search.search_result) shown = [...(shown ?? []), ...done.results];
      sequence = tool.web_search.result_sequence ?? 'after';
    } else if (tool.type === 'retrieval') {
      messages = await retrieval(messages, tool.retrieval, search);
    }
  }
  return { messages, webSearch: shown, sequence };
}
