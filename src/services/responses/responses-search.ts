import type { OutputItem } from '../../api/responses-reply.js';
import type { ChatStreamPart, ChatUsage } from '../../engines/chat/types.js';
import { randomHex } from '../../ids/random-hex.js';
import type { CompletionRun } from '../chat/chat-service.js';
import { WEB_SEARCH_FUNCTION, type WebSearchTurn } from './map-request.js';

/** What a response is built from: the model's parts, and items that are whole when they come (a search that ran). */
export type ResponsePart = ChatStreamPart | { type: 'item-done'; item: OutputItem };

/** Starts the model again on the same turn, with the search of `query` run and its results in the prompt. */
export type SearchAndAnswer = (query: string) => Promise<CompletionRun>;

function queryOf(args: string, fallback: string): string {
  try {
    const parsed = JSON.parse(args) as unknown;
    const query = (parsed as { query?: unknown } | null)?.query;
    if (typeof query === 'string' && query.trim() !== '') return query;
  } catch {
    // Arguments that are not the JSON asked for: the user's words are the query.
  }
  return fallback;
}

const sum = (a: ChatUsage, b: ChatUsage): ChatUsage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  cachedTokens: a.cachedTokens + b.cachedTokens,
  reasoningTokens: a.reasoningTokens + b.reasoningTokens,
});

/**
 * The parts of a response whose request offers `web_search`: the model sees it as a function, and
 * a search runs only when the model calls it. The call is not shown as a function call: when the
 * model's turn ends on it alone, the search runs (priced and bounded as chat's web_search tool),
 * its `web_search_call` item comes next, and the model answers again with the results in its
 * prompt, once (the function is not offered again). A search asked for beside the client's own
 * calls is not run: the turn ends with the client's calls. The finish carries both runs' usage.
 */
export async function* partsWithSearch(
  first: CompletionRun,
  search: WebSearchTurn,
  answer: SearchAndAnswer,
  includeSources: boolean,
): AsyncGenerator<ResponsePart> {
  const searchCalls = new Map<number, string>();
  let clientCalls = 0;
  let finish: Extract<ChatStreamPart, { type: 'finish' }> | undefined;
  for await (const part of first.parts) {
    if (part.type === 'tool-call-start') {
      if (part.name === WEB_SEARCH_FUNCTION) {
        searchCalls.set(part.index, '');
        continue;
      }
      clientCalls++;
    } else if (part.type === 'tool-call-delta' && searchCalls.has(part.index)) {
      searchCalls.set(part.index, searchCalls.get(part.index) + part.argumentsDelta);
      continue;
    } else if (part.type === 'tool-call-end' && searchCalls.has(part.index)) {
      continue;
    } else if (part.type === 'finish') {
      finish = part;
      continue;
    }
    yield part;
  }
  // Cut off before its finish: the caller says so.
  if (finish === undefined) return;
  const [args] = searchCalls.values();
  if (args === undefined || clientCalls > 0 || finish.reason !== 'tool_calls') {
    yield finish;
    return;
  }
  const query = queryOf(args, search.fallbackQuery);
  const second = await answer(query);
  const sources = includeSources
    ? (second.webSearch?.results ?? []).map((r) => ({ type: 'url' as const, url: r.link }))
    : undefined;
  yield {
    type: 'item-done',
    item: {
      id: `ws_${randomHex(12)}`,
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query, ...(sources ? { sources } : {}) },
    },
  };
  for await (const part of second.parts) {
    yield part.type === 'finish' ? { ...part, usage: sum(finish.usage, part.usage) } : part;
  }
}
