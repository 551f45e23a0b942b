import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../../src/errors/api-error.js';
import { createGuardedFetcher } from '../../../src/net/fetcher.js';
import { runImageEngineContract } from '../../contracts/image-engine.contract.js';
import { createImageEngine } from './helpers.js';
import { startOpenAIReplay } from './replay/openai-replay.js';

runImageEngineContract('openai-compatible', async () => {
  const replay = await startOpenAIReplay();
  return {
    replay,
    engine: (url = replay.url) => createImageEngine({ engine: 'openai-compatible', base_url: url, model: 'sd-turbo' }),
    steps: undefined,
    cancelledBy: 'disconnect',
  };
});

describe('openai-compatible image engine', () => {
  it('sends the OpenAI images body and reads a url answer from the same server', async () => {
    const replay = await startOpenAIReplay();
    const engine = await createImageEngine({
      engine: 'openai-compatible',
      base_url: replay.url,
      model: 'sd-turbo',
      response_format: 'url',
    });
    const image = await engine.generate(
      { prompt: 'a fox', size: { width: 512, height: 512 }, quality: 'hd', seed: 1 },
      new AbortController().signal,
    );
    expect(image.mime).toBe('image/png');
    await engine.close();
    await replay.close();
  });

  it('fetches an image URL on another host through the guarded fetcher, without credentials', async () => {
    const replay = await startOpenAIReplay();
    // The engine is configured as localhost; it answers URLs on 127.0.0.1, another origin.
    const base = replay.url.replace('127.0.0.1', 'localhost');
    const request = { prompt: 'a fox', size: { width: 512, height: 512 }, quality: 'hd' as const, seed: 1 };
    const refused = await createImageEngine({
      engine: 'openai-compatible',
      base_url: base,
      model: 'sd-turbo',
      response_format: 'url',
    });
    const err = await refused.generate(request, new AbortController().signal).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe(1234);
    expect((err as Error).message).toContain('127.0.0.1 is in the loopback range');
    await refused.close();
    const allowed = await createImageEngine(
      { engine: 'openai-compatible', base_url: base, model: 'sd-turbo', response_format: 'url' },
      { outbound: createGuardedFetcher({ allowHosts: ['127.0.0.1'] }) },
    );
    expect((await allowed.generate(request, new AbortController().signal)).mime).toBe('image/png');
    await allowed.close();
    await replay.close();
  });

  it('refuses a request the server rejects (4xx) as refused by the backend, not retried', async () => {
    const replay = await startOpenAIReplay();
    const engine = await createImageEngine({ engine: 'openai-compatible', base_url: replay.url, model: 'm' });
    const err = await engine
      .generate({ prompt: '', size: { width: 512, height: 512 }, quality: 'hd', seed: 1 }, new AbortController().signal)
      .catch((e: unknown) => e);
    expect((err as Error & { cause?: { name?: string } }).cause?.name).toBe('RequestRefusedByBackend');
    await engine.close();
    await replay.close();
  });
});
