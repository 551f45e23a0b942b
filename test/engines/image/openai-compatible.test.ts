import { describe, expect, it } from 'vitest';
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
