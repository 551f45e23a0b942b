import { describe, expect, it, vi } from 'vitest';
import type { ChatCompletionBody } from '../../../src/api/chat.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { callContext } from '../../../src/services/call-context.js';
import { ChatService } from '../../../src/services/chat/chat-service.js';
import { PROMPT_BOUNDS_DEFAULTS } from '../../../src/services/chat/prompt-bounds.js';
import { applySearchTools } from '../../../src/services/chat/search-tools.js';
import type { SearchService } from '../../../src/services/search/search-service.js';
import { SCRIPTED_CAPABILITIES, ScriptedChatEngine, scriptedDirectory } from '../../helpers/scripted-chat-engine.js';

/**
 * The template bounds: length and placeholder caps (1214 naming the field and the
 * config key), the filled size known before the string is built, and the 1261 before any search
 * or tokenizing of a prompt that cannot fit.
 */

type Tool = NonNullable<ChatCompletionBody['tools']>[number];

function fakeSearch(snippet = 'Hold the red button for ten seconds.') {
  const query = vi.fn(async () => [{ title: 'Manual', snippet, url: 'kb://m', score: 1 }]);
  const search = vi.fn(async () => [
    { refer: 'ref_1', title: 'T', link: 'https://x.example/', content: snippet, media: 'x', icon: '' },
  ]);
  return { service: { index: { query }, search } as unknown as SearchService, query, search };
}

const body = (question: string, tools: Tool[]): ChatCompletionBody =>
  ({ model: 'gen-4.6', messages: [{ role: 'user', content: question }], tools }) as ChatCompletionBody;
const retrieval = (prompt_template?: string): Tool => ({
  type: 'retrieval',
  retrieval: { knowledge_id: 'manual', ...(prompt_template === undefined ? {} : { prompt_template }) },
});
const webSearch = (search_prompt: string): Tool => ({ type: 'web_search', web_search: { search_prompt } });

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('template caps', () => {
  const bounds = PROMPT_BOUNDS_DEFAULTS;

  it('refuse a prompt_template longer than chat.template_max_chars before searching', async () => {
    const s = fakeSearch();
    const long = `{{question}} ${'x'.repeat(bounds.templateMaxChars)}`;
    const error = await refusal(applySearchTools(body('q', [retrieval(long)]), s.service, bounds, 8192));
    expect(error.code).toBe(1214);
    expect(error.message).toContain('tools[0].retrieval.prompt_template');
    expect(error.message).toContain('chat.template_max_chars');
    expect(s.query).not.toHaveBeenCalled();
  });

  it('refuse more placeholders than chat.template_max_placeholders before searching', async () => {
    const s = fakeSearch();
    const many = `{{knowledge}}${' {{question}}'.repeat(bounds.templateMaxPlaceholders)}`;
    const error = await refusal(applySearchTools(body('why', [retrieval(many)]), s.service, bounds, 8192));
    expect(error.code).toBe(1214);
    expect(error.message).toContain('chat.template_max_placeholders');
    expect(error.message).toContain(`got ${bounds.templateMaxPlaceholders + 1}`);
    expect(s.query).not.toHaveBeenCalled();

    const search = `{search_result}${' {{search_result}}'.repeat(bounds.templateMaxPlaceholders)}`;
    const web = await refusal(applySearchTools(body('why', [webSearch(search)]), s.service, bounds, 8192));
    expect(web.message).toContain('tools[0].web_search.search_prompt');
    expect(s.search).not.toHaveBeenCalled();
  });

  it('the acceptance template (50 x {{question}} on a 0.5 MB question) is refused at once, in bounded memory', async () => {
    const s = fakeSearch();
    const template = `{{knowledge}} {{question}}${' {{question}}'.repeat(49)}`;
    const heap = process.memoryUsage().heapUsed;
    const error = await refusal(
      applySearchTools(body('why '.repeat(125_000), [retrieval(template)]), s.service, bounds, 8192),
    );
    expect(error.code).toBe(1214);
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(50 * 1024 * 1024);
  });
});

describe('filled size, known before the prompt is built', () => {
  const bounds = PROMPT_BOUNDS_DEFAULTS;

  it('is 1261 before the search when the question repeated cannot fit', async () => {
    const s = fakeSearch();
    // 4 x 70,000 characters: more than 8,192 tokens x 32 characters.
    const question = 'why '.repeat(17_500);
    const template = '{{question}} {{question}} {{question}} {{question}}';
    const error = await refusal(applySearchTools(body(question, [retrieval(template)]), s.service, bounds, 8192));
    expect(error.code).toBe(1261);
    expect(error.message).toContain('chat.max_chars_per_token');
    expect(s.query).not.toHaveBeenCalled();
    // The same question once fits.
    await expect(
      applySearchTools(body(question, [retrieval('{{question}}')]), s.service, bounds, 8192),
    ).resolves.toBeTruthy();
  });

  it('is 1261 when the knowledge found would overflow, before the string is built', async () => {
    const s = fakeSearch('k'.repeat(100_000));
    const template = '{{knowledge}} {{knowledge}} {{knowledge}} {{question}}';
    const error = await refusal(applySearchTools(body('pump', [retrieval(template)]), s.service, bounds, 8192));
    expect(error.code).toBe(1261);
    expect(s.query).toHaveBeenCalledTimes(1);
  });

  it('fills what fits, with the question taken literally ($& and $1 are no patterns)', async () => {
    const s = fakeSearch();
    const done = await applySearchTools(
      body('cost $& of $1?', [retrieval('Q: {{question}} K: {{knowledge}}')]),
      s.service,
      bounds,
      8192,
    );
    expect(done.messages[0]).toEqual({
      role: 'user',
      content: 'Q: cost $& of $1? K: Manual\nHold the red button for ten seconds.',
    });
  });
});

describe('the 1261 before tokenizing', () => {
  it('refuses a prompt longer than the context can hold without calling the engine', async () => {
    const engine = new ScriptedChatEngine({ ...SCRIPTED_CAPABILITIES, maxContext: 1024, maxOutput: 512 });
    const chat = new ChatService(scriptedDirectory(engine), fakeSearch().service, {
      ...PROMPT_BOUNDS_DEFAULTS,
      maxCharsPerToken: 16,
    });
    const identity = { id: 'x', created: 0, requestId: 'x' };
    const long = {
      model: 'gen-4.6',
      messages: [{ role: 'user', content: 'a'.repeat(16 * 1024 + 1) }],
    } as ChatCompletionBody;
    const error = await refusal(chat.start(long, identity, callContext({ tenant: 'key-1' })));
    expect(error.code).toBe(1261);
    expect(error.message).toContain('16385 characters');
    expect(engine.requests).toEqual([]);
    expect(engine.counted).toEqual([]);
  });

  it('counts the function tools too: 128 tools of long descriptions are a 1261 before any tokenizing', async () => {
    const engine = new ScriptedChatEngine({ ...SCRIPTED_CAPABILITIES, maxContext: 1024, maxOutput: 512 });
    const chat = new ChatService(scriptedDirectory(engine), fakeSearch().service, {
      ...PROMPT_BOUNDS_DEFAULTS,
      maxCharsPerToken: 16,
    });
    const identity = { id: 'x', created: 0, requestId: 'x' };
    const tools = Array.from({ length: 128 }, (_, i) => ({
      type: 'function',
      function: { name: `f${i}`, description: 'd'.repeat(1000), parameters: { type: 'object' } },
    }));
    const short = { model: 'gen-4.6', messages: [{ role: 'user', content: 'hi' }], tools } as ChatCompletionBody;
    const error = await refusal(chat.start(short, identity, callContext({ tenant: 'key-1' })));
    expect(error.code).toBe(1261);
    expect(engine.counted).toEqual([]);
  });

  /** A chat service on a 1024-token engine at 16 characters a token: 16,384 characters fit. */
  function smallChat(search = fakeSearch()) {
    const engine = new ScriptedChatEngine({ ...SCRIPTED_CAPABILITIES, maxContext: 1024, maxOutput: 512 });
    const chat = new ChatService(scriptedDirectory(engine), search.service, {
      ...PROMPT_BOUNDS_DEFAULTS,
      maxCharsPerToken: 16,
    });
    return { engine, chat, search };
  }
  const identity = { id: 'x', created: 0, requestId: 'x' };
  const hugeFunction = {
    type: 'function',
    function: { name: 'f', description: 'd'.repeat(3_600_000), parameters: { type: 'object' } },
  } as Tool;

  it('counts the function tools beside a web_search tool (even one switched off): no search, no tokenizing', async () => {
    const { engine, chat, search } = smallChat();
    const tools = [{ type: 'web_search', web_search: { enable: false } } as Tool, hugeFunction];
    const error = await refusal(chat.start(body('hi', tools), identity, callContext({ tenant: 'key-1' })));
    expect(error.code).toBe(1261);
    // 'hi', the name, the description and the parameters' JSON.
    expect(error.message).toContain(`${2 + 1 + 3_600_000 + 17} characters`);
    expect(engine.requests).toEqual([]);
    expect(engine.counted).toEqual([]);
    expect(search.search).not.toHaveBeenCalled();
  });

  it('counts them beside a retrieval tool too, before the collection is read', async () => {
    const { engine, chat, search } = smallChat();
    const error = await refusal(
      chat.start(body('hi', [retrieval(), hugeFunction]), identity, callContext({ tenant: 'key-1' })),
    );
    expect(error.code).toBe(1261);
    expect(engine.counted).toEqual([]);
    expect(search.query).not.toHaveBeenCalled();
  });

  it('counts what a search adds on top of the function tools', async () => {
    // Tools of 16,000 characters fit alone; with the results' prompt they do not.
    const { engine, chat } = smallChat(fakeSearch('s'.repeat(1000)));
    const fn = { type: 'function', function: { name: 'f', description: 'd'.repeat(15_990) } } as Tool;
    const tools = [{ type: 'web_search', web_search: {} } as Tool, fn];
    const error = await refusal(chat.start(body('hi', tools), identity, callContext({ tenant: 'key-1' })));
    expect(error.code).toBe(1261);
    expect(error.message).toContain('The prompt with the web search results');
    expect(engine.counted).toEqual([]);
  });

  it("counts a tool result's tool_call_id and a tool call's id", async () => {
    const { engine, chat } = smallChat();
    const id = 'c'.repeat(9000);
    const messages = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: id, content: 'ok' },
    ];
    const long = { model: 'gen-4.6', messages } as ChatCompletionBody;
    const error = await refusal(chat.start(long, identity, callContext({ tenant: 'key-1' })));
    expect(error.code).toBe(1261);
    expect(error.message).toContain(`${2 + 9000 + 1 + 2 + 9000 + 2} characters`);
    expect(engine.counted).toEqual([]);
  });

  it("another wire's token count (count_tokens) is refused the same way, without tokenizing", async () => {
    const { engine, chat } = smallChat();
    const error = await refusal(chat.countPromptTokens(body('hi', [hugeFunction]), callContext({ tenant: 'key-1' })));
    expect(error.code).toBe(1261);
    expect(engine.counted).toEqual([]);
  });
});
