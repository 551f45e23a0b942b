import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAIN_REPLY } from '../../src/test-models/programmed-model.js';
import type { TestApp } from '../helpers/test-app.js';
import { type AgentApp, type AgentReply, agentBody, startAgentApp } from './agents-support.js';
import { PLATFORM_ID } from './support.js';

let app: AgentApp;
let t: TestApp;
beforeAll(async () => {
  app = await startAgentApp();
  t = app.t;
});
afterAll(() => app?.close());

const agent = agentBody;
type Reply = AgentReply;

describe('POST /v1/agents', () => {
  it('answers the §7 shape, with the usage of the calls made', async () => {
    const res = await t.post('/v1/agents', agent());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body)).toEqual(['id', 'agent_id', 'conversation_id', 'status', 'choices', 'usage']);
    expect(res.body['id']).toMatch(PLATFORM_ID);
    expect(res.body['conversation_id']).toMatch(PLATFORM_ID);
    expect(res.body).toMatchObject({
      agent_id: 'general_translation',
      status: 'success',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          messages: [{ role: 'assistant', content: { type: 'text', text: PLAIN_REPLY } }],
        },
      ],
      usage: { total_calls: 1 },
    });
    const u = (res.body as unknown as Reply).usage;
    expect(u.prompt_tokens).toBeGreaterThan(0);
    expect(u.completion_tokens).toBeGreaterThan(0);
    expect(u.total_tokens).toBe(u.prompt_tokens + u.completion_tokens);
  });

  it.each([
    ['general', 1],
    ['paraphrase', 1],
    ['two_step', 2],
    ['three_step', 3],
    ['reflection', 3],
  ])('strategy %s makes %i call(s)', async (strategy, calls) => {
    const res = await t.post('/v1/agents', agent({ strategy }));
    expect(res.status).toBe(200);
    const u = (res.body as unknown as Reply).usage;
    expect(u.total_calls).toBe(calls);
    // Every call's tokens are counted: each prompt is longer than the model's reply.
    expect(u.prompt_tokens).toBeGreaterThan(calls * 20);
  });

  it('cot: two calls on a model without thinking, one with', async () => {
    const plain = await t.post('/v1/agents', agent({ strategy: 'cot' }));
    const engine = await t.services.chat!.engineFor('gen-4.7');
    expect((plain.body as unknown as Reply).usage.total_calls).toBe(engine.capabilities.thinking ? 1 : 2);
  });

  it('a string content and the /paas/v4 alias work the same', async () => {
    const res = await t.post('/paas/v4/v1/agents', {
      agent_id: 'general_translation',
      messages: [{ role: 'user', content: 'Bonjour' }],
    });
    expect(res.status).toBe(200);
    expect((res.body as unknown as Reply).choices[0]!.messages[0]!.content.text).toBe(PLAIN_REPLY);
  });
});

describe('glossary', () => {
  it('a missing target term costs one repair call', async () => {
    const res = await t.post('/v1/agents', agentBody({ glossary: 'weather => météo\nharbour => port' }));
    expect(res.status).toBe(200);
    // "harbour" is not in the text: only "weather" applies, and the model never writes "météo".
    expect((res.body as unknown as AgentReply).usage.total_calls).toBe(2);
  });

  it('no repair when the translation already uses the term', async () => {
    const res = await t.post('/v1/agents', agentBody({ strategy: 'two_step', glossary: 'weather => test model' }));
    expect((res.body as unknown as AgentReply).usage.total_calls).toBe(2);
  });

  it('no repair when no source term occurs', async () => {
    const res = await t.post('/v1/agents', agentBody({ glossary: 'cat => chat' }));
    expect((res.body as unknown as AgentReply).usage.total_calls).toBe(1);
  });
});

describe('validation against the agent (400 1214 naming the field)', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['unknown target_lang', agentBody({ target_lang: 'xx-YY' }), 'custom_variables.target_lang'],
    ['unknown source_lang', agentBody({ source_lang: 'klingon' }), 'custom_variables.source_lang'],
    ['a glossary line without =>', agentBody({ glossary: 'cat => chat\ndog' }), 'custom_variables.glossary'],
    [
      'no user message',
      { agent_id: 'general_translation', messages: [{ role: 'system', content: 'Be formal.' }] },
      'messages',
    ],
    [
      'only whitespace to translate',
      { agent_id: 'general_translation', messages: [{ role: 'user', content: '  \n ' }] },
      'messages[0].content',
    ],
    ['unknown strategy', agentBody({ strategy: 'nonsense' }), 'custom_variables.strategy'],
    ['unknown agent', { ...agentBody(), agent_id: 'no_such_agent' }, 'agent_id'],
  ])('%s', async (_label, body, field) => {
    const res = await t.post('/v1/agents', body);
    expect(res.status).toBe(400);
    expect(res.body['code']).toBe(1214);
    expect(String(res.body['message'])).toContain(field);
  });

  it('accepts codes case-insensitively and auto-detects the source', async () => {
    const res = await t.post('/v1/agents', agentBody({ source_lang: 'auto', target_lang: 'ZH-tw' }));
    expect(res.status).toBe(200);
  });
});
