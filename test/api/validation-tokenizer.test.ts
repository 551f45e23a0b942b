import { afterAll, beforeAll, describe, it } from 'vitest';
import { TOKENIZER_MODEL_CODES } from '../../src/models/catalogue.js';
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

const URL = EXAMPLES.tokenizer.url;
const base: Body = EXAMPLES.tokenizer.body;
const user = (content: Json): Body => ({ role: 'user', content });
const tok = (changes: Record<string, Json | undefined>) => withFields(base, changes);
const msgs = (...messages: Json[]) => tok({ messages });
const withContent = (...items: Json[]) => msgs(user(items));
const tools = (...list: Json[]) => tok({ tools: list });
const manyTools = (n: number) => Array.from({ length: n }, (_, i) => functionTool(`fn_${i}`));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(withoutEngines());
});
afterAll(() => t.close());

describe('tokenizer: required fields (1213)', () => {
  it.each<[string, Body, string]>([
    ['model', tok({ model: undefined }), 'model'],
    ['messages', tok({ messages: undefined }), 'messages'],
    ['message role', msgs({ content: 'hi' }), 'messages[0].role'],
    ['user content', msgs({ role: 'user' }), 'messages[0].content'],
    ['system content', msgs({ role: 'system' }, user('hi')), 'messages[0].content'],
    ['text item text', withContent({ type: 'text' }), 'messages[0].content[0].text'],
    ['image_url.url', withContent({ type: 'image_url', image_url: {} }), 'messages[0].content[0].image_url.url'],
    ['function name', tools({ type: 'function', function: { description: 'd' } }), 'tools[0].function.name'],
    ['function description', tools({ type: 'function', function: { name: 'f' } }), 'tools[0].function.description'],
    ['tool function', tools({ type: 'function' }), 'tools[0].function'],
  ])('%s', async (_label, body, field) => {
    expectRejected(await t.post(URL, body), 1213, field);
  });
});

describe('tokenizer: invalid fields (1214)', () => {
  it.each<[string, Body, string]>([
    ['messages empty', tok({ messages: [] }), 'messages'],
    ['only system messages', msgs({ role: 'system', content: 'a' }), 'messages'],
    ['only assistant messages', msgs({ role: 'assistant', content: 'a' }, { role: 'assistant' }), 'messages'],
    [
      'tool message (chat completion only)',
      msgs(user('hi'), { role: 'tool', content: 'x', tool_call_id: 'c' }),
      'messages[1]',
    ],
    ['unknown role', msgs({ role: 'developer', content: 'hi' }), 'messages[0]'],
    ['content item extra property', withContent({ type: 'text', text: 'a', lang: 'en' }), 'messages[0].content[0]'],
    [
      'inner url object extra property',
      withContent({ type: 'video_url', video_url: { url: 'https://x/v.mp4', start: 0 } }),
      'messages[0].content[0].video_url',
    ],
    [
      'file_url with image_url',
      withContent(
        { type: 'image_url', image_url: { url: 'https://x/a.png' } },
        { type: 'file_url', file_url: { url: 'https://x/a.pdf' } },
      ),
      'file_url',
    ],
    ['129 tools', tok({ tools: manyTools(129) }), 'tools'],
    [
      'retrieval tool (function tools only)',
      tools({ type: 'retrieval', retrieval: { knowledge_id: 'k' } }),
      'tools[0]: type must be one of: function',
    ],
    ['function name pattern', tools(functionTool('name!')), 'tools[0].function.name'],
    ['function name 65 characters', tools(functionTool(repeat(65))), 'tools[0].function.name'],
    ['function name empty', tools(functionTool('')), 'tools[0].function.name'],
    ['request_id 5 characters', tok({ request_id: repeat(5) }), 'request_id'],
    ['request_id 65 characters', tok({ request_id: repeat(65) }), 'request_id'],
    ['user_id 5 characters', tok({ user_id: repeat(5) }), 'user_id'],
    ['user_id 129 characters', tok({ user_id: repeat(129) }), 'user_id'],
  ])('%s', async (_label, body, field) => {
    expectRejected(await t.post(URL, body), 1214, field);
  });
});

describe('tokenizer: unknown model (1211)', () => {
  it.each<[string, Json]>([
    ['a chat-only model', 'gen-5.2'],
    ['another vendor', 'claude-3'],
    ['a number', 46],
  ])('%s', async (_label, model) => {
    expectRejected(await t.post(URL, tok({ model })), 1211, 'model');
  });
});

describe('tokenizer: accepted', () => {
  it.each(TOKENIZER_MODEL_CODES)('model %s', async (model) => {
    expectAccepted(await t.post(URL, tok({ model })));
  });

  it.each<[string, Body]>([
    ['assistant without content (not required in the tokenizer)', msgs(user('hi'), { role: 'assistant' })],
    ['system and user', msgs({ role: 'system', content: 'Be brief' }, user('hi'))],
    ['128 tools', tok({ tools: manyTools(128) })],
    ['function name of 64 characters', tools(functionTool(repeat(64)))],
    ['a tools item without type', tools({ function: { name: 'f', description: 'd' } })],
    [
      'request_id of 6 and user_id of 128 characters',
      tok({ request_id: `t${Date.now()}`.slice(0, 6), user_id: repeat(128) }),
    ],
    ['request_id of 64 characters', tok({ request_id: `${Date.now()}`.padEnd(64, 'y') })],
    ['null optional fields', tok({ tools: null, request_id: null, user_id: null })],
    [
      'image and video items',
      withContent(
        { type: 'text', text: 'a' },
        { type: 'image_url', image_url: { url: 'https://x/a.png' } },
        { type: 'video_url', video_url: { url: 'https://x/a.mp4' } },
      ),
    ],
    ['extra fields', tok({ seed: 1, meta: {}, extra: { x: 1 } })],
  ])('%s', async (_label, body) => {
    expectAccepted(await t.post(URL, body));
  });
});
