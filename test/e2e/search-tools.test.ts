import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployment, type E2eServer, startServer } from './support.js';

const DOCS = [
  {
    url: 'https://energy.example.com/tidal',
    title: 'Tidal turbines in Orkney',
    content: 'Tidal turbines on the seabed of the Orkney strait feed power ashore through an armoured cable.',
  },
  {
    url: 'https://bread.example.net/sourdough',
    title: 'Sourdough starter',
    content: 'Feed the sourdough starter twice a day with flour and water.',
  },
];
const MANUAL = [
  {
    url: 'kb://manual/reset',
    title: 'Resetting the pump',
    content: 'To reset the pump controller hold the red button for ten seconds until the display blinks twice.',
    collection: 'manual',
  },
];

const ask = (content: string) => [{ role: 'user', content }];

describe('chat tools that search: web_search and retrieval', () => {
  let s: E2eServer;
  /** Keys of two accounts: `manual` is A's. */
  let keyA = '';
  let keyB = '';
  beforeAll(async () => {
    s = await startServer((p) => ({ 'gen-4.6': deployment(p.programmed) }));
    await s.t.services.search.index.upsert([...DOCS, ...MANUAL]);
    const accountKey = async (name: string) => {
      const { account } = await s.t.services.accounts.createAccount({ name, email: `${name}@example.test` });
      return {
        accountId: account.id,
        key: (await s.t.services.keys.create({ name }, { accountId: account.id, maxKeys: 5 })).key,
      };
    };
    const a = await accountKey('a');
    keyA = a.key;
    keyB = (await accountKey('b')).key;
    await s.t.services.search.index.setOwner('manual', `account:${a.accountId}`);
  });
  afterAll(() => s.close());

  const chat = async (body: Record<string, unknown>, key = s.t.key) => {
    const res = await s.t.app.inject({
      method: 'POST',
      url: '/paas/v4/chat/completions',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      payload: JSON.stringify({ model: 'gen-4.6', do_sample: false, max_tokens: 16, ...body }),
    });
    expect(res.statusCode).toBe(200);
    return { text: res.payload };
  };
  const promptTokens = async (body: Record<string, unknown>, key?: string) =>
    (JSON.parse((await chat(body, key)).text) as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
  const retrieve = (knowledge_id: string) => [
    { type: 'retrieval', retrieval: { knowledge_id, prompt_template: 'Facts: {{knowledge}}\nQ: {{question}}' } },
  ];

  it('returns the index results as web_search when search_result is true', async () => {
    const res = await chat({
      messages: ask('tidal turbines cable'),
      tools: [{ type: 'web_search', web_search: { search_result: true, search_engine: 'search_pro' } }],
    });
    const body = JSON.parse(res.text) as { web_search: { link: string; refer: string }[]; choices: unknown[] };
    expect(body.web_search[0]).toMatchObject({ link: 'https://energy.example.com/tidal', refer: 'ref_1' });
    expect(body.choices).toHaveLength(1);
  });

  it('puts the results in the prompt, and returns none without search_result', async () => {
    const plain = await promptTokens({ messages: ask('tidal turbines cable') });
    const res = await chat({ messages: ask('tidal turbines cable'), tools: [{ type: 'web_search', web_search: {} }] });
    const body = JSON.parse(res.text) as { web_search?: unknown; usage: { prompt_tokens: number } };
    expect(body.web_search).toBeUndefined();
    expect(body.usage.prompt_tokens).toBeGreaterThan(plain + 20);
  });

  it('honours search_query, enable:false and a custom search_prompt', async () => {
    const plain = await promptTokens({ messages: ask('hello') });
    const disabled = await promptTokens({
      messages: ask('hello'),
      tools: [{ type: 'web_search', web_search: { enable: false } }],
    });
    expect(disabled).toBe(plain);
    const custom = await promptTokens({
      messages: ask('hello'),
      tools: [
        {
          type: 'web_search',
          web_search: { search_query: 'sourdough flour', search_prompt: 'Results: {search_result}' },
        },
      ],
    });
    expect(custom).toBeGreaterThan(plain);
  });

  it('rides web_search on the last chunk by default and on the first with result_sequence before', async () => {
    for (const [sequence, position] of [
      ['after', 'last'],
      ['before', 'first'],
    ] as const) {
      const res = await s.inject('/paas/v4/chat/completions', {
        model: 'gen-4.6',
        stream: true,
        max_tokens: 8,
        messages: ask('tidal turbines'),
        tools: [{ type: 'web_search', web_search: { search_result: true, result_sequence: sequence } }],
      });
      const chunks = res.text
        .split('\n\n')
        .filter((e) => e.startsWith('data: {'))
        .map((e) => JSON.parse(e.slice(6)) as { web_search?: unknown });
      const carrying = chunks.map((c, i) => (c.web_search ? i : -1)).filter((i) => i >= 0);
      expect(carrying).toEqual([position === 'first' ? 0 : chunks.length - 1]);
    }
  });

  it('retrieval puts the collection passages into the prompt through the template', async () => {
    const question = 'How do I reset the pump controller?';
    const plain = await promptTokens({ messages: ask(question) }, keyA);
    const withKnowledge = await promptTokens({ messages: ask(question), tools: retrieve('manual') }, keyA);
    // The passage about the red button is ~20 tokens on the byte-level test tokenizer, far more.
    expect(withKnowledge).toBeGreaterThan(plain + 50);
    const otherCollection = await promptTokens({ messages: ask(question), tools: retrieve('nothing-here') }, keyA);
    expect(otherCollection).toBeLessThan(withKnowledge);
  });

  it("a key of another account, or with none, reads another account's collection as one that does not exist", async () => {
    const question = 'How do I reset the pump controller?';
    const missing = await promptTokens({ messages: ask(question), tools: retrieve('nothing-here') }, keyB);
    expect(await promptTokens({ messages: ask(question), tools: retrieve('manual') }, keyB)).toBe(missing);
    expect(await promptTokens({ messages: ask(question), tools: retrieve('manual') }, s.t.key)).toBe(missing);
    // `web`, what web search reads, is everyone's.
    const web = await promptTokens({ messages: ask('tidal turbines cable'), tools: retrieve('web') }, keyB);
    const none = await promptTokens({ messages: ask('tidal turbines cable'), tools: retrieve('nothing-here') }, keyB);
    expect(web).toBeGreaterThan(none);
  });
});
