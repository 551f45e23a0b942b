import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import {
  type Body,
  EXAMPLES,
  expectAccepted,
  expectRejected,
  type Json,
  withFields,
  withoutEngines,
} from './support.js';

const AGENTS = EXAMPLES.agents.url;
const CONVERSATION = EXAMPLES.conversation.url;
const agent = (changes: Record<string, Json | undefined>) => withFields(EXAMPLES.agents.body, changes);
const conv = (changes: Record<string, Json | undefined>) => withFields(EXAMPLES.conversation.body, changes);
const vars = (custom_variables: Json) => agent({ custom_variables });
const pages = (...list: Json[]) => conv({ custom_variables: { pages: list } });
const page = (changes: Record<string, Json | undefined>) =>
  withFields({ position: 1, width: 595, height: 842 }, changes);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(withoutEngines());
});
afterAll(() => t.close());

describe('agents: required fields (1213)', () => {
  it.each<[string, Body, string]>([
    ['agent_id', agent({ agent_id: undefined }), 'agent_id'],
    ['messages', agent({ messages: undefined }), 'messages'],
    ['message role', agent({ messages: [{ content: 'hi' }] }), 'messages[0].role'],
    ['message content', agent({ messages: [{ role: 'user' }] }), 'messages[0].content'],
    [
      'text part text',
      agent({ messages: [{ role: 'user', content: [{ type: 'text' }] }] }),
      'messages[0].content[0].text',
    ],
    [
      'text part type',
      agent({ messages: [{ role: 'user', content: [{ text: 'x' }] }] }),
      'messages[0].content[0].type',
    ],
  ])('%s', async (_label, body, field) => {
    expectRejected(await t.post(AGENTS, body), 1213, field);
  });
});

describe('agents: invalid fields (1214)', () => {
  it.each<[string, Body, string]>([
    ['agent_id not in the enum', agent({ agent_id: 'general_summary' }), 'agent_id'],
    ['agent_id empty', agent({ agent_id: '' }), 'agent_id'],
    ['messages empty', agent({ messages: [] }), 'messages'],
    ['messages not an array', agent({ messages: { role: 'user' } }), 'messages'],
    ['role unknown', agent({ messages: [{ role: 'robot', content: 'hi' }] }), 'messages[0].role'],
    [
      'content part of another type',
      agent({ messages: [{ role: 'user', content: [{ type: 'image_url', text: 'x' }] }] }),
      'messages[0].content[0].type',
    ],
    ['content empty array', agent({ messages: [{ role: 'user', content: [] }] }), 'messages[0].content'],
    [
      'content an object',
      agent({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] }),
      'messages[0].content',
    ],
    ['stream not a boolean', agent({ stream: 'maybe' }), 'stream'],
    ['custom_variables not an object', vars('glossary'), 'custom_variables'],
    ['glossary not a string', vars({ glossary: ['a => b'] }), 'custom_variables.glossary'],
    ['strategy not in the enum', vars({ strategy: 'literal' }), 'custom_variables.strategy'],
    ['source_lang empty', vars({ source_lang: '' }), 'custom_variables.source_lang'],
    ['target_lang empty', vars({ target_lang: '' }), 'custom_variables.target_lang'],
    [
      'strategy_config.general not an object',
      vars({ strategy_config: { general: 'x' } }),
      'custom_variables.strategy_config.general',
    ],
    [
      'strategy_config.general.suggestion not a string',
      vars({ strategy_config: { general: { suggestion: {} } } }),
      'custom_variables.strategy_config.general.suggestion',
    ],
    [
      'strategy_config.cot.reason_lang',
      vars({ strategy_config: { cot: { reason_lang: 'both' } } }),
      'custom_variables.strategy_config.cot.reason_lang',
    ],
  ])('%s', async (_label, body, field) => {
    expectRejected(await t.post(AGENTS, body), 1214, field);
  });

  it('states the allowed agent ids', async () => {
    expectRejected(await t.post(AGENTS, agent({ agent_id: 'nope' })), 1214, 'general_translation');
  });
});

describe('agents: accepted', () => {
  it.each<[string, Body]>([
    ['the spec example', agent({})],
    ['content as a string', agent({ messages: [{ role: 'user', content: 'Hello' }] })],
    ['stream true', agent({ stream: true })],
    [
      'every custom variable',
      vars({
        glossary: 'cat => Katze\ndog => Hund',
        source_lang: 'en',
        target_lang: 'de',
        strategy: 'cot',
        strategy_config: { general: { suggestion: 'formal' }, cot: { reason_lang: 'from' } },
      }),
    ],
    ...['general', 'paraphrase', 'two_step', 'three_step', 'reflection', 'cot'].map((s): [string, Body] => [
      `strategy ${s}`,
      vars({ strategy: s }),
    ]),
    ['null optional fields', agent({ stream: null, custom_variables: null })],
    ['extra fields', agent({ meta: { a: 1 }, request_id: 'abcdef', user_id: 'abcdef' })],
  ])('%s', async (_label, body) => {
    expectAccepted(await t.post(AGENTS, body));
  });
});

describe('agent conversation: required fields (1213)', () => {
  it.each<[string, Body, string]>([
    ['agent_id', conv({ agent_id: undefined }), 'agent_id'],
    ['conversation_id', conv({ conversation_id: undefined }), 'conversation_id'],
    ['pages[].position', pages(page({ position: undefined })), 'custom_variables.pages[0].position'],
    ['pages[].width', pages(page({ width: undefined })), 'custom_variables.pages[0].width'],
    ['pages[].height', pages(page({ height: undefined })), 'custom_variables.pages[0].height'],
  ])('%s', async (_label, body, field) => {
    expectRejected(await t.post(CONVERSATION, body), 1213, field);
  });
});

describe('agent conversation: invalid fields (1214)', () => {
  it.each<[string, Body, string]>([
    ['agent_id not in the enum', conv({ agent_id: 'other' }), 'agent_id'],
    ['conversation_id empty', conv({ conversation_id: '' }), 'conversation_id'],
    ['conversation_id too long', conv({ conversation_id: 'c'.repeat(129) }), 'conversation_id'],
    ['conversation_id not a string', conv({ conversation_id: { id: 1 } }), 'conversation_id'],
    ['include_pdf not a boolean', conv({ custom_variables: { include_pdf: 'sure' } }), 'custom_variables.include_pdf'],
    ['pages not an array', conv({ custom_variables: { pages: { position: 1 } } }), 'custom_variables.pages'],
    ['pages item not an object', pages(1), 'custom_variables.pages[0]'],
    ['position not an integer', pages(page({ position: 1.5 })), 'custom_variables.pages[0].position'],
    ['position 0', pages(page({ position: 0 })), 'custom_variables.pages[0].position'],
    ['position a word', pages(page({ position: 'first' })), 'custom_variables.pages[0].position'],
    ['width not an integer', pages(page({ width: 595.5 })), 'custom_variables.pages[0].width'],
    ['width 0', pages(page({ width: 0 })), 'custom_variables.pages[0].width'],
    ['height not an integer', pages(page({ height: 841.9 })), 'custom_variables.pages[0].height'],
    ['height too large', pages(page({ height: 20001 })), 'custom_variables.pages[0].height'],
    [
      'too many pages',
      pages(...Array.from({ length: 1001 }, (_, i) => page({ position: i + 1 }))),
      'custom_variables.pages',
    ],
  ])('%s', async (_label, body, field) => {
    expectRejected(await t.post(CONVERSATION, body), 1214, field);
  });
});

describe('agent conversation: accepted (an unknown conversation is 1233)', () => {
  it.each<[string, Body]>([
    ['both ids', conv({})],
    [
      'include_pdf and pages',
      conv({ custom_variables: { include_pdf: true, pages: [page({}), page({ position: 2 })] } }),
    ],
    ['page numbers as strings', pages(page({ position: '2', width: '595', height: '842' }))],
    ['null custom_variables', conv({ custom_variables: null })],
  ])('%s', async (_label, body) => {
    expectAccepted(await t.post(CONVERSATION, body), [1233]);
  });
});

describe('agent aliases apply the same rules', () => {
  it.each(['/paas/v4/v1/agents', '/v1/agents'])('%s', async (url) => {
    expectRejected(await t.post(url, agent({ agent_id: 'x' })), 1214, 'agent_id');
    expectAccepted(await t.post(url, agent({})));
    expectRejected(await t.post(`${url}/conversation`, conv({ conversation_id: undefined })), 1213, 'conversation_id');
  });

  it('on the coding base', async () => {
    const key = await t.newKey({ endpoints: ['coding'] });
    expectRejected(await t.post('/coding/paas/v4/v1/agents', agent({ messages: [] }), key), 1214, 'messages');
    expectAccepted(await t.post('/coding/paas/v4/v1/agents', agent({}), key));
  });
});
