import { afterAll, beforeAll, describe, it } from 'vitest';
import { CHAT_MODEL_CODES } from '../../src/models/catalogue.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import {
  type Body,
  EXAMPLES,
  expectAccepted,
  expectRejected,
  functionTool,
  type Json,
  repeat,
  withFields,
  withoutEngines,
} from './support.js';

const URL = EXAMPLES.chat.url;
const base: Body = EXAMPLES.chat.body;
const user = (content: Json): Body => ({ role: 'user', content });
const chat = (changes: Record<string, Json | undefined>) => withFields(base, changes);
const msgs = (...messages: Json[]) => chat({ messages });
const withContent = (...items: Json[]) => msgs(user(items));
const tools = (...list: Json[]) => chat({ tools: list });
const toolCall: Body = {
  id: 'call_1',
  type: 'function',
  function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
};
const manyTools = (n: number) => Array.from({ length: n }, (_, i) => functionTool(`fn_${i}`));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(withoutEngines());
});
afterAll(() => t.close());

describe('chat completions: required fields (1213)', () => {
  it.each<[string, Body, string]>([
    ['model', chat({ model: undefined }), 'model'],
    ['messages', chat({ messages: undefined }), 'messages'],
    ['message role', msgs({ content: 'hi' }), 'messages[0].role'],
    ['user content', msgs({ role: 'user' }), 'messages[0].content'],
    ['system content', msgs({ role: 'system' }, user('hi')), 'messages[0].content'],
    ['tool message tool_call_id', msgs(user('hi'), { role: 'tool', content: 'x' }), 'messages[1].tool_call_id'],
    ['tool message content', msgs(user('hi'), { role: 'tool', tool_call_id: 'call_1' }), 'messages[1].content'],
    ['content item type', withContent({ text: 'hi' }), 'messages[0].content[0].type'],
    ['text item text', withContent({ type: 'text' }), 'messages[0].content[0].text'],
    ['image_url item image_url', withContent({ type: 'image_url' }), 'messages[0].content[0].image_url'],
    ['image_url.url', withContent({ type: 'image_url', image_url: {} }), 'messages[0].content[0].image_url.url'],
    ['video_url.url', withContent({ type: 'video_url', video_url: {} }), 'messages[0].content[0].video_url.url'],
    ['file_url.url', withContent({ type: 'file_url', file_url: {} }), 'messages[0].content[0].file_url.url'],
    ['tool function', tools({ type: 'function' }), 'tools[0].function'],
    ['function name', tools({ type: 'function', function: { description: 'd' } }), 'tools[0].function.name'],
    ['function description', tools({ type: 'function', function: { name: 'f' } }), 'tools[0].function.description'],
    ['retrieval knowledge_id', tools({ type: 'retrieval', retrieval: {} }), 'tools[0].retrieval.knowledge_id'],
    ['web_search object', tools({ type: 'web_search' }), 'tools[0].web_search'],
    [
      'tool_calls id',
      msgs(user('hi'), { role: 'assistant', tool_calls: [{ function: { name: 'f', arguments: '{}' } }] }),
      'messages[1].tool_calls[0].id',
    ],
    [
      'tool_calls function',
      msgs(user('hi'), { role: 'assistant', tool_calls: [{ id: 'call_1' }] }),
      'messages[1].tool_calls[0].function',
    ],
  ])('%s', async (_label, body, field) => {
    expectRejected(await t.post(URL, body), 1213, field);
  });
});

describe('chat completions: invalid fields (1214)', () => {
  it.each<[string, Body, string]>([
    // message list rules
    ['messages empty', chat({ messages: [] }), 'messages'],
    ['messages not an array', chat({ messages: 'hi' }), 'messages'],
    ['message not an object', msgs('hi'), 'messages[0]'],
    ['unknown role', msgs({ role: 'bot', content: 'hi' }), 'messages[0]'],
    ['only system messages', msgs({ role: 'system', content: 'a' }, { role: 'system', content: 'b' }), 'messages'],
    [
      'only assistant messages',
      msgs({ role: 'assistant', content: 'a' }, { role: 'assistant', content: 'b' }),
      'messages',
    ],
    ['assistant without content or tool_calls', msgs(user('hi'), { role: 'assistant' }), 'messages[1]'],
    ['assistant with empty tool_calls only', msgs(user('hi'), { role: 'assistant', tool_calls: [] }), 'messages[1]'],
    [
      'system content as array',
      msgs({ role: 'system', content: [{ type: 'text', text: 'a' }] }, user('hi')),
      'messages[0].content',
    ],
    ['user content empty array', msgs(user([])), 'messages[0].content'],
    ['user content an object', msgs(user({ text: 'hi' })), 'messages[0].content'],
    // content items
    [
      'content item unknown type',
      withContent({ type: 'audio_url', audio_url: { url: 'x' } }),
      'messages[0].content[0]',
    ],
    ['text item extra property', withContent({ type: 'text', text: 'hi', extra: 1 }), 'messages[0].content[0]'],
    [
      'image_url item extra property',
      withContent({ type: 'image_url', image_url: { url: 'https://x/a.png' }, detail: 'high' }),
      'messages[0].content[0]',
    ],
    [
      'image_url inner object extra property',
      withContent({ type: 'image_url', image_url: { url: 'https://x/a.png', detail: 'high' } }),
      'messages[0].content[0].image_url',
    ],
    [
      'video_url inner object extra property',
      withContent({ type: 'video_url', video_url: { url: 'https://x/a.mp4', fps: 2 } }),
      'messages[0].content[0].video_url',
    ],
    [
      'file_url inner object extra property',
      withContent({ type: 'file_url', file_url: { url: 'https://x/a.pdf', name: 'a' } }),
      'messages[0].content[0].file_url',
    ],
    [
      'image_url url not a string',
      withContent({ type: 'image_url', image_url: { url: {} } }),
      'messages[0].content[0].image_url.url',
    ],
    [
      'file_url with image_url in one message',
      withContent(
        { type: 'file_url', file_url: { url: 'https://x/a.pdf' } },
        { type: 'image_url', image_url: { url: 'https://x/a.png' } },
      ),
      'file_url',
    ],
    [
      'file_url with video_url across messages',
      msgs(
        user([{ type: 'video_url', video_url: { url: 'https://x/a.mp4' } }]),
        { role: 'assistant', content: 'ok' },
        user([{ type: 'file_url', file_url: { url: 'https://x/a.pdf' } }]),
      ),
      'file_url',
    ],
    // tools
    ['129 tools', chat({ tools: manyTools(129) }), 'tools'],
    ['tools not an array', chat({ tools: { type: 'function' } }), 'tools'],
    ['unknown tool type', tools({ type: 'code_interpreter', code_interpreter: {} }), 'tools[0]'],
    ['function name with a space', tools(functionTool('get weather')), 'tools[0].function.name'],
    ['function name with a dot', tools(functionTool('a.b')), 'tools[0].function.name'],
    ['function name non-ASCII', tools(functionTool('wetter_ä')), 'tools[0].function.name'],
    ['function name empty', tools(functionTool('')), 'tools[0].function.name'],
    ['function name 65 characters', tools(functionTool(repeat(65))), 'tools[0].function.name'],
    [
      'function description not a string',
      tools({ type: 'function', function: { name: 'f', description: {} } }),
      'tools[0].function.description',
    ],
    [
      'function parameters not an object',
      tools({ type: 'function', function: { name: 'f', description: 'd', parameters: 'none' } }),
      'tools[0].function.parameters',
    ],
    ['web_search tool count 0', tools({ type: 'web_search', web_search: { count: 0 } }), 'tools[0].web_search.count'],
    ['web_search tool count 51', tools({ type: 'web_search', web_search: { count: 51 } }), 'tools[0].web_search.count'],
    [
      'web_search tool recency',
      tools({ type: 'web_search', web_search: { search_recency_filter: 'oneDecade' } }),
      'tools[0].web_search.search_recency_filter',
    ],
    [
      'web_search tool content_size',
      tools({ type: 'web_search', web_search: { content_size: 'low' } }),
      'tools[0].web_search.content_size',
    ],
    [
      'web_search tool result_sequence',
      tools({ type: 'web_search', web_search: { result_sequence: 'middle' } }),
      'tools[0].web_search.result_sequence',
    ],
    [
      'retrieval knowledge_id empty',
      tools({ type: 'retrieval', retrieval: { knowledge_id: '' } }),
      'tools[0].retrieval.knowledge_id',
    ],
    // tool calls in assistant messages
    [
      'tool_calls index negative',
      msgs(user('hi'), { role: 'assistant', tool_calls: [{ ...toolCall, index: -1 }] }),
      'messages[1].tool_calls[0].index',
    ],
    [
      'tool_calls type not function',
      msgs(user('hi'), { role: 'assistant', tool_calls: [{ ...toolCall, type: 'retrieval' }] }),
      'messages[1].tool_calls[0].type',
    ],
    [
      'tool_calls function name empty',
      msgs(user('hi'), { role: 'assistant', tool_calls: [{ id: 'c', function: { name: '', arguments: '{}' } }] }),
      'messages[1].tool_calls[0].function.name',
    ],
    // scalar fields
    ['temperature below 0', chat({ temperature: -0.1 }), 'temperature'],
    ['temperature above 1', chat({ temperature: 1.01 }), 'temperature'],
    ['temperature not a number', chat({ temperature: 'hot' }), 'temperature'],
    ['top_p 0', chat({ top_p: 0 }), 'top_p'],
    ['top_p below 0.01', chat({ top_p: 0.009 }), 'top_p'],
    ['top_p above 1', chat({ top_p: 1.5 }), 'top_p'],
    ['max_tokens 0', chat({ max_tokens: 0 }), 'max_tokens'],
    ['max_tokens 131073', chat({ model: 'gen-5.2', max_tokens: 131073 }), 'max_tokens'],
    ['max_tokens not an integer', chat({ max_tokens: 1.5 }), 'max_tokens'],
    [
      'max_tokens over 16K for gen-4-32b-0414-128k',
      chat({ model: 'gen-4-32b-0414-128k', max_tokens: 16385 }),
      'max_tokens',
    ],
    ['max_tokens over 96K for gen-4.5', chat({ model: 'gen-4.5', max_tokens: 98305 }), 'max_tokens'],
    ['max_tokens over 96K for gen-4.5-air', chat({ model: 'gen-4.5-air', max_tokens: 98305 }), 'max_tokens'],
    ['do_sample not a boolean', chat({ do_sample: 'maybe' }), 'do_sample'],
    ['stream not a boolean', chat({ stream: 'sometimes' }), 'stream'],
    ['tool_stream not a boolean', chat({ tool_stream: [] }), 'tool_stream'],
    ['thinking not an object', chat({ thinking: 'enabled' }), 'thinking'],
    ['thinking.type', chat({ thinking: { type: 'on' } }), 'thinking.type'],
    ['thinking.clear_thinking', chat({ thinking: { clear_thinking: 'yes' } }), 'thinking.clear_thinking'],
    ['reasoning_effort', chat({ reasoning_effort: 'extreme' }), 'reasoning_effort'],
    ['tool_choice', chat({ tool_choice: 'required' }), 'tool_choice'],
    ['tool_choice object', chat({ tool_choice: { type: 'function' } }), 'tool_choice'],
    ['stop with 5 items', chat({ stop: ['a', 'b', 'c', 'd', 'e'] }), 'stop'],
    ['stop an object', chat({ stop: { word: 'a' } }), 'stop'],
    ['response_format.type', chat({ response_format: { type: 'xml' } }), 'response_format.type'],
    ['response_format without type', chat({ response_format: {} }), 'response_format.type'],
    ['request_id 5 characters', chat({ request_id: repeat(5) }), 'request_id'],
    ['request_id 65 characters', chat({ request_id: repeat(65) }), 'request_id'],
    ['user_id 5 characters', chat({ user_id: repeat(5) }), 'user_id'],
    ['user_id 129 characters', chat({ user_id: repeat(129) }), 'user_id'],
  ])('%s', async (label, body, field) => {
    const code = label === 'response_format without type' ? 1213 : 1214;
    expectRejected(await t.post(URL, body), code, field);
  });

  it.each([
    ['temperature', 'must be between 0 and 1'],
    ['top_p', 'must be between 0.01 and 1'],
  ])('states the rule of %s in the message', async (field, rule) => {
    const res = await t.post(URL, chat({ [field]: 2 }));
    expectRejected(res, 1214, field);
    expectRejected(res, 1214, rule);
  });

  it('states the per-model ceiling of max_tokens', async () => {
    const res = await t.post(URL, chat({ model: 'gen-4-32b-0414-128k', max_tokens: 20000 }));
    expectRejected(res, 1214, 'max_tokens');
    expectRejected(res, 1214, '16384');
  });
});

describe('chat completions: unknown model (1211)', () => {
  it.each<[string, Json]>([
    ['another vendor', 'gpt-4o'],
    ['tokenizer-only model', 'gen-4.6v'],
    ['image model', 'gen-image'],
    ['wrong case', 'GEN-4.6'],
    ['empty', ''],
  ])('%s', async (_label, model) => {
    const res = await t.post(URL, chat({ model }));
    expectRejected(res, 1211, 'model');
    expectRejected(res, 1211, JSON.stringify(model));
  });
});

describe('chat completions: accepted', () => {
  it.each(CHAT_MODEL_CODES)('model %s', async (model) => {
    expectAccepted(await t.post(URL, chat({ model })));
  });

  it.each(['max', 'xhigh', 'high', 'medium', 'low', 'minimal', 'none'])('reasoning_effort %s', async (effort) => {
    expectAccepted(await t.post(URL, chat({ model: 'gen-5.2', reasoning_effort: effort })));
  });

  it.each<[string, Body]>([
    ['temperature 0', chat({ temperature: 0 })],
    ['temperature 1', chat({ temperature: 1 })],
    ['top_p 0.01', chat({ top_p: 0.01 })],
    ['top_p 1', chat({ top_p: 1 })],
    ['max_tokens 1', chat({ max_tokens: 1 })],
    ['max_tokens 131072 on gen-5.2', chat({ model: 'gen-5.2', max_tokens: 131072 })],
    ['max_tokens 16384 on gen-4-32b-0414-128k', chat({ model: 'gen-4-32b-0414-128k', max_tokens: 16384 })],
    ['max_tokens 98304 on gen-4.5', chat({ model: 'gen-4.5', max_tokens: 98304 })],
    ['128 tools', chat({ tools: manyTools(128) })],
    ['function name of 1 character', tools(functionTool('f'))],
    ['function name of 64 characters', tools(functionTool(repeat(64)))],
    ['function name with - and _ and digits', tools(functionTool('get-weather_v2'))],
    ['function without parameters', tools({ type: 'function', function: { name: 'now', description: 'The time' } })],
    ['request_id of 6 characters', chat({ request_id: `r6${Date.now().toString(36).slice(-4)}` })],
    ['request_id of 64 characters', chat({ request_id: `${Date.now()}`.padEnd(64, 'x') })],
    ['user_id of 6 characters', chat({ user_id: repeat(6) })],
    ['user_id of 128 characters', chat({ user_id: repeat(128) })],
    ['stop with 4 items', chat({ stop: ['a', 'b', 'c', 'd'] })],
    ['stop as a single string', chat({ stop: '###' })],
    ['thinking disabled', chat({ thinking: { type: 'disabled', clear_thinking: false } })],
    ['response_format json_object', chat({ response_format: { type: 'json_object' } })],
    ['tool_choice auto with tools', chat({ tool_choice: 'auto', tools: [functionTool('f')] })],
    ['do_sample false, stream true, tool_stream true', chat({ do_sample: false, stream: true, tool_stream: true })],
    ['system then user', msgs({ role: 'system', content: 'Be brief' }, user('hi'))],
    ['assistant with content', msgs(user('hi'), { role: 'assistant', content: 'hello' }, user('again'))],
    ['assistant with content ""', msgs(user('hi'), { role: 'assistant', content: '' })],
    [
      'tool message after tool call',
      msgs(
        user('hi'),
        { role: 'assistant', tool_calls: [toolCall] },
        { role: 'tool', content: '{"t":3}', tool_call_id: 'call_1' },
      ),
    ],
    [
      'assistant reasoning_content',
      msgs(user('hi'), { role: 'assistant', content: 'a', reasoning_content: 'because' }, user('b')),
    ],
    [
      'every content item kind but file',
      withContent(
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'video_url', video_url: { url: 'https://x/a.mp4' } },
      ),
    ],
    [
      'file_url with text',
      withContent({ type: 'file_url', file_url: { url: 'https://x/a.pdf' } }, { type: 'text', text: 'sum up' }),
    ],
    [
      'web_search tool',
      tools({
        type: 'web_search',
        web_search: {
          enable: true,
          search_engine: 'anything',
          count: 50,
          search_recency_filter: 'oneWeek',
          content_size: 'high',
          result_sequence: 'before',
          search_result: true,
        },
      }),
    ],
    [
      'retrieval tool',
      tools({ type: 'retrieval', retrieval: { knowledge_id: 'docs', prompt_template: '{{knowledge}} {{question}}' } }),
    ],
    [
      'tool_calls arguments as an object',
      msgs(user('hi'), { role: 'assistant', tool_calls: [{ id: 'c', function: { name: 'f', arguments: { a: 1 } } }] }),
    ],
  ])('%s', async (_label, body) => {
    expectAccepted(await t.post(URL, body));
  });
});

describe('chat completions: what SDKs send (docs/wire.md, "Null handling", "Chat completions")', () => {
  it.each<[string, Body]>([
    ['null thinking and response_format (Python SDK)', chat({ thinking: null, response_format: null })],
    [
      'null in every optional field',
      chat({
        temperature: null,
        top_p: null,
        max_tokens: null,
        stop: null,
        tools: null,
        tool_choice: null,
        request_id: null,
        user_id: null,
        stream: null,
        do_sample: null,
      }),
    ],
    [
      'assistant content null with tool_calls carrying index',
      msgs(
        user('hi'),
        { role: 'assistant', content: null, tool_calls: [{ ...toolCall, index: 0 }] },
        { role: 'tool', content: 'sunny', tool_call_id: 'call_1' },
      ),
    ],
    [
      'assistant content "" with tool_calls',
      msgs(user('hi'), { role: 'assistant', content: '', tool_calls: [{ ...toolCall, index: 0 }] }),
    ],
    ['tool_choice auto without tools (Vercel provider)', chat({ tool_choice: 'auto' })],
    [
      'extra fields seed, meta, extra, stream_options, n',
      chat({ seed: 42, meta: { a: 1 }, extra: { b: 2 }, stream_options: { include_usage: true }, n: 1 }),
    ],
    [
      'sensitive_word_check and watermark_enabled',
      chat({ sensitive_word_check: { type: 'ALL', status: 'DISABLE' }, watermark_enabled: false }),
    ],
    ['a tools item without type', tools({ function: { name: 'f', description: 'd', parameters: { type: 'object' } } })],
    ['a tools item with type null', tools({ type: null, function: { name: 'f', description: 'd' } })],
    ['numbers as strings', chat({ temperature: '0.5', top_p: '0.9', max_tokens: '100' })],
  ])('%s', async (_label, body) => {
    expectAccepted(await t.post(URL, body));
  });
});

describe('chat completions on the coding endpoint', () => {
  it('applies the same rules', async () => {
    const key = await t.newKey({ endpoints: ['coding'] });
    expectRejected(await t.post(`/coding${URL}`, chat({ temperature: 3 }), key), 1214, 'temperature');
    expectAccepted(await t.post(`/coding${URL}`, chat({}), key));
  });
});

describe('chat completions: only numbers are read from strings (docs/wire.md, "Ids")', () => {
  it.each([
    ['stream', { stream: 'false' }],
    ['do_sample', { do_sample: 'true' }],
    ['temperature', { temperature: true }],
  ])('a %s of the wrong type is refused, not retyped', async (field, extra) => {
    expectRejected(await t.post(URL, chat(extra)), 1214, field);
  });

  it('reads a number sent as a string', async () => {
    expectAccepted(await t.post(URL, chat({ temperature: '0.5', max_tokens: '16' })));
  });
});
