import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatStreamPart, ChatUsage } from '../../../src/engines/chat/types.js';
import type { SearchResultEntry } from '../../../src/search/result-entry.js';
import type { SearchService } from '../../../src/services/search/search-service.js';
import { ScriptedChatEngine } from '../../helpers/scripted-chat-engine.js';
import { eventsOf, responsesOn } from './fixture.js';

/**
 * The `web_search` tool of a Responses request is a function the model may call: the server
 * searches only when it does, then has the model answer with the results in its prompt.
 */

const USAGE: ChatUsage = { promptTokens: 40, completionTokens: 12, cachedTokens: 30, reasoningTokens: 5 };
const HIT: SearchResultEntry = {
  title: 'The lighthouse keeper',
  content: 'He climbed the stairs every evening.',
  link: 'https://example.com/keeper',
  media: '',
  icon: '',
  refer: 'ref_1',
  publish_date: '',
};

const searchCall = (args: string[]): ChatStreamPart[] => [
  { type: 'tool-call-start', index: 0, id: 'call_000000000000000000000001', name: 'web_search' },
  ...args.map((argumentsDelta): ChatStreamPart => ({ type: 'tool-call-delta', index: 0, argumentsDelta })),
  { type: 'tool-call-end', index: 0 },
  { type: 'finish', reason: 'tool_calls', usage: USAGE },
];

let close: (() => void) | undefined;
afterEach(() => close?.());
function on(engine: ScriptedChatEngine) {
  const search = vi.fn(async () => [HIT]);
  const r = responsesOn(engine, { search } as unknown as SearchService);
  close = r.close;
  return { ...r, search };
}
const WEB = { tools: [{ type: 'web_search' as const }], input: 'Who keeps the lighthouse?' };

describe('Responses: the web_search tool', () => {
  it('is not run when the model answers without calling it', async () => {
    const engine = new ScriptedChatEngine().says('From memory: the keeper.');
    const { complete, search } = on(engine);
    const res = await complete(WEB);
    expect(search).not.toHaveBeenCalled();
    expect(res.output.map((o) => o.type)).toEqual(['message']);
    // The model was offered the search as a function it may call.
    expect(engine.requests[0]!.tools.map((t) => t.name)).toEqual(['web_search']);
  });

  it("runs the model's query when called, then the model answers with the results in its prompt", async () => {
    const engine = new ScriptedChatEngine()
      .replies(searchCall(['{"query": "lighthouse', ' keeper"}']))
      .says('The keeper climbs the stairs.', 'stop', USAGE);
    const { complete, search } = on(engine);
    const res = await complete({ ...WEB, include: ['web_search_call.action.sources'] });
    expect(search).toHaveBeenCalledTimes(1);
    expect(search.mock.calls[0]).toMatchObject([{ query: 'lighthouse keeper', count: 10 }, true]);
    expect(res.output).toMatchObject([
      {
        type: 'web_search_call',
        status: 'completed',
        action: { type: 'search', query: 'lighthouse keeper', sources: [{ type: 'url', url: HIT.link }] },
      },
      { type: 'message', content: [{ type: 'output_text', text: 'The keeper climbs the stairs.' }] },
    ]);
    expect(res.output.some((o) => o.type === 'function_call')).toBe(false);
    // The answer's run: the results in its prompt, no search offered again.
    const second = engine.requests[1]!;
    expect(JSON.stringify(second.messages)).toContain(HIT.content);
    expect(second.tools).toEqual([]);
    // Both runs' tokens.
    expect(res.usage).toMatchObject({ input_tokens: 80, output_tokens: 24, total_tokens: 104 });
  });

  it("a call beside the client's own calls is not run: the turn ends with the client's calls", async () => {
    const engine = new ScriptedChatEngine().replies([
      { type: 'tool-call-start', index: 0, id: 'call_000000000000000000000001', name: 'web_search' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"query": "x"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_000000000000000000000002', name: 'get_time' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', reason: 'tool_calls', usage: USAGE },
    ]);
    const { complete, search } = on(engine);
    const res = await complete({
      ...WEB,
      tools: [...WEB.tools, { type: 'function', name: 'get_time', parameters: { type: 'object' }, strict: false }],
    });
    expect(search).not.toHaveBeenCalled();
    expect(res.output).toMatchObject([{ type: 'function_call', name: 'get_time', arguments: '{}' }]);
  });

  it('streamed: the search item comes whole between the runs, the answer after it, numbered in order', async () => {
    const engine = new ScriptedChatEngine()
      .replies([{ type: 'text-delta', text: 'Let me look.' }, ...searchCall(['{"query": "keeper"}'])])
      .says(['The keeper ', 'climbs.'], 'stop', USAGE);
    const { stream } = on(engine);
    const events = eventsOf(await stream(WEB));
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const items = events
      .filter((e) => e.type === 'response.output_item.done')
      .map((e) => e['item'] as { type: string; action?: { query: string } });
    expect(items.map((i) => i.type)).toEqual(['message', 'web_search_call', 'message']);
    expect(items[1]!.action?.query).toBe('keeper');
    expect(events.some((e) => e.type === 'response.function_call_arguments.delta')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'response.completed' });
  });
});
