import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAIN_REPLY } from '../../src/test-models/programmed-model.js';
import { type AgentApp, type AgentReply, agentBody, parseStream, startAgentApp } from './agents-support.js';

/** The agent pointed at gen-5, which runs the programmed model's thinking variant. */
let app: AgentApp;
beforeAll(async () => {
  app = await startAgentApp({ model: 'gen-5' });
});
afterAll(() => app?.close());

describe('cot on a thinking model', () => {
  it('is one call: the reasoning is the thought, the answer the translation', async () => {
    const engine = await app.t.services.chat!.engineFor('gen-5');
    expect(engine.capabilities.thinking).toBe(true);
    const res = await app.t.post(
      '/v1/agents',
      agentBody({ strategy: 'cot', strategy_config: { cot: { reason_lang: 'from' } } }),
    );
    expect(res.status).toBe(200);
    const reply = res.body as unknown as AgentReply;
    expect(reply.usage.total_calls).toBe(1);
    // The thought never leaks into the translation.
    expect(reply.choices[0]!.messages[0]!.content.text).toBe(PLAIN_REPLY);
  });

  it('other strategies do not think: their answer has no thought either', async () => {
    const res = await app.t.post('/v1/agents', agentBody({ strategy: 'two_step' }));
    const reply = res.body as unknown as AgentReply;
    expect(reply.usage.total_calls).toBe(2);
    expect(reply.choices[0]!.messages[0]!.content.text).toBe(PLAIN_REPLY);
  });
});

describe('an agent model that is not served', () => {
  it('is 1211 naming the config key', async () => {
    const other = await startAgentApp({ model: 'gen-4.5' });
    try {
      const res = await other.t.post('/v1/agents', agentBody());
      expect(res.status).toBe(400);
      expect(res.body['code']).toBe(1211);
      expect(String(res.body['message'])).toContain('agents.general_translation.model');
    } finally {
      await other.close();
    }
  });
});

describe('agents.general_translation.glossary_repair: false', () => {
  it('checks nothing and makes no repair call', async () => {
    const other = await startAgentApp({ glossary_repair: false });
    try {
      const res = await other.t.post('/v1/agents', agentBody({ glossary: 'weather => météo' }));
      expect(res.status).toBe(200);
      expect((res.body as unknown as AgentReply).usage.total_calls).toBe(1);
    } finally {
      await other.close();
    }
  });
});

describe('a translation cut by the output limit', () => {
  it("finishes with length, in the whole reply and the stream's last chunk", async () => {
    const other = await startAgentApp({}, { deployment: { max_output: 3 } });
    try {
      const res = await other.t.post('/v1/agents', agentBody());
      expect(res.status).toBe(200);
      expect((res.body as unknown as AgentReply).choices[0]!.finish_reason).toBe('length');
      const stream = await other.t.app.inject({
        method: 'POST',
        url: '/v1/agents',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${other.t.key}` },
        payload: JSON.stringify(agentBody({}, { stream: true })),
      });
      const { chunks } = parseStream(stream.payload);
      expect(chunks.at(-1)).toMatchObject({ choices: [{ index: 0, finish_reason: 'length' }] });
    } finally {
      await other.close();
    }
  });
});
