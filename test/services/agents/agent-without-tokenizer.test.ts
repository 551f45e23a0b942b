import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokensAtMost, tokenUpperBound } from '../../../src/engines/chat/token-bound.js';
import { unsupportedCall } from '../../../src/errors/errors.js';
import { type SlowUpstream, startSlowUpstream } from '../../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

describe('token counts without a tokenizer', () => {
  it('the bound is the UTF-8 length plus a template allowance per message', () => {
    expect(tokenUpperBound([{ role: 'user', content: 'héllo' }])).toBe(6 + 16);
    expect(
      tokenUpperBound([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: '你好' }] },
      ]),
    ).toBe(9 + 6 + 2 * 16);
  });

  it('countTokensAtMost: the exact count where there is one, the bound on 1212, other errors thrown', async () => {
    const messages = [{ role: 'user' as const, content: 'hello' }];
    await expect(countTokensAtMost({ countTokens: async () => 3 }, messages)).resolves.toBe(3);
    const cannot = {
      countTokens: async () => {
        throw unsupportedCall('no tokenizer');
      },
    };
    await expect(countTokensAtMost(cannot, messages)).resolves.toBe(5 + 16);
    const broken = {
      countTokens: async () => {
        throw new Error('boom');
      },
    };
    await expect(countTokensAtMost(broken, messages)).rejects.toThrow('boom');
  });
});

describe('the translation agent on an upstream model with no tokenizer configured', () => {
  let upstream: SlowUpstream;
  let t: TestApp;
  beforeAll(async () => {
    upstream = await startSlowUpstream({ chunks: 3, delayMs: 1, word: 'mot ' });
    t = await createTestApp({
      models: {
        'gen-4.6': {
          deployments: [{ engine: 'openai-compatible', base_url: upstream.baseUrl, model: 'm', max_context: 2048 }],
        },
      },
      agents: { general_translation: { model: 'gen-4.6', piece_tokens: 64 } },
    });
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('translates, cutting long text by the UTF-8 bound, while /tokenizer stays 1212', async () => {
    const text = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} is about the harbour and the weather.`).join(
      '\n\n',
    );
    const res = await t.post('/v1/agents', {
      agent_id: 'general_translation',
      messages: [{ role: 'user', content: [{ type: 'text', text }] }],
      custom_variables: { target_lang: 'fr' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body['status']).toBe('success');
    // 6 paragraphs of ~55 bytes against a budget of 64: several pieces, one call each.
    expect((res.body['usage'] as { total_calls: number }).total_calls).toBeGreaterThanOrEqual(3);
    const tok = await t.post('/paas/v4/tokenizer', { model: 'gen-4.6', messages: [{ role: 'user', content: 'hi' }] });
    expect(tok.status).toBe(400);
    expect(tok.body['code']).toBe(1212);
  });
});
