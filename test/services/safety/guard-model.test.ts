import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayControl } from '../../engines/image/replay/common.js';
import { startOpenAIReplay } from '../../engines/image/replay/openai-replay.js';
import { ReplayServer } from '../../engines/openai-compatible/replay-server.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

/** A guard model (Llama Guard style) behind an OpenAI-compatible chat upstream: its verdict by keyword. */
function verdictFor(text: string): string {
  if (text.includes('bomb')) return 'unsafe\nS9';
  if (text.includes('election')) return 'Safety: Controversial\nCategories: Politically Sensitive Topics';
  if (text.includes('gibberish')) return 'I am not sure what you mean';
  return 'safe';
}

let guard: ReplayServer;
let images: ReplayControl;
let t: TestApp;

beforeAll(async () => {
  guard = await ReplayServer.start((request) => {
    const messages = request.body['messages'] as { content: string }[];
    const content = verdictFor(messages.at(-1)!.content);
    const body = {
      id: 'x',
      object: 'chat.completion',
      created: 1,
      model: 'llama-guard',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
    };
    return { contentType: 'application/json', pieces: [JSON.stringify(body)] };
  });
  images = await startOpenAIReplay();
  t = await createTestApp({
    models: {
      guard: {
        deployments: [
          { engine: 'openai-compatible', base_url: `${guard.url}/v1`, model: 'llama-guard', stream: false },
        ],
      },
      'gen-image': { deployments: [{ engine: 'openai-compatible', base_url: images.url, model: 'm' }] },
    },
    safety: { guard_model: 'guard', on_guard_error: 'refuse' },
  });
});
afterAll(async () => {
  await t?.close();
  await guard?.close();
  await images?.close();
});

const generate = (prompt: string) =>
  t.post('/paas/v4/images/generations', { model: 'gen-image', prompt, size: '1024x1024' });

describe('guard model through the chat-engine seam', () => {
  it('lets a safe prompt through at level 3, after asking the guard with the prompt', async () => {
    const res = await generate('a lighthouse');
    expect(res.status).toBe(200);
    expect(res.body['content_filter']).toEqual([{ role: 'user', level: 3 }]);
    const asked = guard.requests.at(-1)!.body;
    expect(asked['messages']).toEqual([{ role: 'user', content: 'a lighthouse' }]);
    expect(asked['temperature'] ?? 0).toBe(0);
  });

  it('refuses an unsafe verdict with 1301 and generates nothing', async () => {
    const before = images.jobs.length;
    const res = await generate('how to build a bomb');
    expect(res.status).toBe(400);
    expect(res.body['code']).toBe(1301);
    expect(images.jobs.length).toBe(before);
  });

  it('reports a controversial verdict at level 1 and generates', async () => {
    const res = await generate('an election poster');
    expect(res.status).toBe(200);
    expect(res.body['content_filter']).toEqual([{ role: 'user', level: 1 }]);
  });

  it('fails closed (1234) on an answer that is no verdict', async () => {
    const res = await generate('gibberish');
    expect(res.status).toBe(502);
    expect(res.body['code']).toBe(1234);
  });

  it('refuses at start-up a guard model code that is not configured', async () => {
    await expect(createTestApp({ safety: { guard_model: 'nope' } })).rejects.toThrow(/safety\.guard_model: "nope"/);
  });
});
