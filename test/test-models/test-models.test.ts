import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGgufFileInfo } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHAT_MODEL_CODES, exampleConfigYaml } from '../../src/test-models/example-config.js';
import { type TestModelPaths, writeTestModels } from '../../src/test-models/write-test-models.js';

let dir: string;
let paths: TestModelPaths;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'test-models-'));
  paths = await writeTestModels(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('test models', () => {
  it('writes llama GGUFs with the keys llama.cpp requires and a ChatML tool-calling template', async () => {
    for (const path of [paths.random, paths.programmed, paths.thinking]) {
      const info = await readGgufFileInfo(path, { logWarnings: false });
      expect(info.metadata.general.architecture).toBe('llama');
      const arch = info.architectureMetadata as unknown as Record<string, unknown>;
      expect(arch.feed_forward_length).toBeGreaterThan(0);
      expect(arch.block_count).toBeGreaterThan(0);
      const tok = info.metadata.tokenizer;
      expect(tok?.ggml.model).toBe('gpt2');
      expect(tok?.ggml.tokens.length).toBeGreaterThan(256);
      expect(tok?.chat_template).toContain('<tool_call>');
      expect(tok?.chat_template).toContain('<|im_start|>');
    }
  });

  it('is deterministic: the same bytes on every write', async () => {
    const again = await writeTestModels(join(dir, 'again'));
    expect((await readFile(again.programmed)).equals(await readFile(paths.programmed))).toBe(true);
    expect((await readFile(again.random)).equals(await readFile(paths.random))).toBe(true);
  });

  it('example config points every chat model code at the given model', () => {
    const config = parse(exampleConfigYaml('/abs/programmed.gguf')) as {
      models: Record<string, { deployments: Record<string, unknown>[] }>;
    };
    expect(Object.keys(config.models)).toEqual([...CHAT_MODEL_CODES]);
    for (const code of CHAT_MODEL_CODES) {
      expect(config.models[code]?.deployments).toEqual([
        { engine: 'llama-cpp', model: '/abs/programmed.gguf', threads: 1, context_size: 2048, parallel: 2 },
      ]);
    }
  });
});
