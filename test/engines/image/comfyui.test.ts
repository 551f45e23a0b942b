import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/load.js';
import type { ApiError } from '../../../src/errors/api-error.js';
import { runImageEngineContract } from '../../contracts/image-engine.contract.js';
import { COMFY_INPUTS, createImageEngine, FIXTURES } from './helpers.js';
import { startComfyReplay } from './replay/comfyui-replay.js';

const deployment = (url: string, extra: Record<string, unknown> = {}) => ({
  engine: 'comfyui',
  base_url: url,
  workflow: 'sd-txt2img-api.json',
  inputs: COMFY_INPUTS,
  poll_interval_ms: 50,
  ...extra,
});

runImageEngineContract('comfyui', async () => {
  const replay = await startComfyReplay();
  return {
    replay,
    engine: (url = replay.url) => createImageEngine(deployment(url)),
    steps: { hd: 30, standard: 20 },
    cancelledBy: 'interrupt',
  };
});

const request = { prompt: 'a fox', size: { width: 512, height: 512 }, quality: 'standard' as const, seed: 7 };

describe('comfyui image engine', () => {
  it('writes every mapped input into the workflow', async () => {
    const replay = await startComfyReplay();
    const engine = await createImageEngine(deployment(replay.url, { negative_prompt: 'blurry' }));
    await engine.generate(request, new AbortController().signal);
    expect(replay.jobs[0]).toEqual({
      prompt: 'a fox',
      negative: 'blurry',
      width: 512,
      height: 512,
      seed: 7,
      steps: 20,
      sampler: 'dpmpp_2m',
    });
    await engine.close();
    await replay.close();
  });

  it('names the node and the error when ComfyUI refuses the workflow (1234, not retried)', async () => {
    const replay = await startComfyReplay();
    const broken = JSON.parse(readFileSync(path.join(FIXTURES, 'sd-txt2img-api.json'), 'utf8'));
    delete broken['3'].inputs.model;
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'comfy-')), 'broken.json');
    writeFileSync(file, JSON.stringify(broken));
    const engine = await createImageEngine(deployment(replay.url, { workflow: file }));
    let started = false;
    const err = (await engine
      .generate(request, new AbortController().signal, { started: () => (started = true) })
      .catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe(1234);
    expect(err.message).toMatch(/node 3 \(KSampler\): required_input_missing/);
    expect((err.cause as Error).name).toBe('RequestRefusedByBackend');
    expect(started).toBe(false);
    await engine.close();
    await replay.close();
  });

  it('reports the failing node of a job that fails while running', async () => {
    const replay = await startComfyReplay();
    replay.fail = 'error';
    const engine = await createImageEngine(deployment(replay.url));
    const err = (await engine.generate(request, new AbortController().signal).catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe(1234);
    expect(err.message).toMatch(/node 3 \(KSampler\): torch.OutOfMemoryError/);
    await engine.close();
    await replay.close();
  });

  it('refuses at start-up a mapping that names a missing node or input', async () => {
    await expect(
      createImageEngine(
        deployment('http://127.0.0.1:9', { inputs: { ...COMFY_INPUTS, seed: { node: '42', input: 'seed' } } }),
      ),
    ).rejects.toThrow(ConfigError);
    await expect(
      createImageEngine(
        deployment('http://127.0.0.1:9', { inputs: { ...COMFY_INPUTS, seed: { node: '3', input: 'noise' } } }),
      ),
    ).rejects.toThrow(/node "3" \(KSampler\) has no input "noise"/);
    await expect(createImageEngine(deployment('http://127.0.0.1:9', { workflow: 'missing.json' }))).rejects.toThrow(
      /cannot read/,
    );
  });
});
