import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGgufFileInfo } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaCppEngine } from '../../src/engines/chat/llama-cpp/engine.js';
import { toF16, writeGguf } from '../../src/test-models/gguf-writer.js';
import { QWEN3_0_6B, type Qwen3Shape, randomQwen3 } from '../../src/test-models/qwen3-model.js';

/** Qwen3-0.6B's proportions (GQA 2:1, head dim twice embedding / heads) at a size tests load fast. */
const TINY: Qwen3Shape = {
  layers: 2,
  embedding: 64,
  heads: 4,
  kvHeads: 2,
  headDim: 32,
  feedForward: 192,
  vocab: 600,
  contextLength: 4096,
};

let dir: string;
let path: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'qwen3-model-'));
  path = join(dir, 'qwen3.gguf');
  await writeGguf(path, randomQwen3(TINY, 3));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('random qwen3 model', () => {
  it('writes the qwen3 keys and tensors llama.cpp reads, matrices in F16', async () => {
    const info = await readGgufFileInfo(path, { logWarnings: false });
    expect(info.metadata.general.architecture).toBe('qwen3');
    const arch = info.architectureMetadata as unknown as Record<string, Record<string, unknown> | number>;
    expect(arch['attention']).toMatchObject({ head_count: 4, head_count_kv: 2, key_length: 32, value_length: 32 });
    expect(info.metadata.tokenizer?.ggml.tokens.length).toBe(600);
    const tensors = new Map(info.tensorInfo?.map((t) => [t.name, t]));
    expect(tensors.get('blk.1.attn_q.weight')?.dimensions.map(Number)).toEqual([64, 128]);
    expect(tensors.get('blk.1.attn_k.weight')?.dimensions.map(Number)).toEqual([64, 64]);
    expect(tensors.get('blk.1.attn_output.weight')?.dimensions.map(Number)).toEqual([128, 64]);
    expect(tensors.get('blk.1.attn_k_norm.weight')?.dimensions.map(Number)).toEqual([32]);
    expect(tensors.has('output.weight')).toBe(false);
    expect(tensors.get('blk.0.ffn_down.weight')?.ggmlType).toBe(1);
    expect(tensors.get('blk.0.ffn_norm.weight')?.ggmlType).toBe(0);
  });

  it('is loaded by llama.cpp and generates to the token limit', async () => {
    const engine = await createLlamaCppEngine({ modelPath: path, threads: 1, contextSize: 256 });
    try {
      let text = '';
      let tokens = 0;
      for await (const part of engine.generate(
        {
          messages: [{ role: 'user', content: 'Hello there' }],
          tools: [],
          sampling: { temperature: 0, topP: 1, greedy: true },
          maxTokens: 12,
          stop: [],
          responseFormat: 'text',
          thinking: false,
        },
        new AbortController().signal,
      )) {
        if (part.type === 'text-delta') text += part.text;
        if (part.type === 'finish') tokens = part.usage.completionTokens;
      }
      expect(tokens).toBe(12);
      expect(text).toMatch(/^[\x20-\x7e]+$/);
    } finally {
      await engine.close();
    }
  });

  it('is deterministic, and has the published shape of Qwen3-0.6B', async () => {
    const again = join(dir, 'again.gguf');
    await writeGguf(again, randomQwen3(TINY, 3));
    expect((await readFile(again)).equals(await readFile(path))).toBe(true);
    expect(QWEN3_0_6B).toMatchObject({ layers: 28, embedding: 1024, heads: 16, kvHeads: 8, headDim: 128 });
    expect(QWEN3_0_6B).toMatchObject({ feedForward: 3072, vocab: 151_936 });
  });
});

describe('F16 conversion', () => {
  it('rounds to the nearest half, ties to even, with subnormals and infinities', () => {
    const halves = (xs: number[]) => [...new Uint16Array(new Uint8Array(toF16(new Float32Array(xs))).buffer)];
    expect(halves([0, -0, 1, -2, 0.5, 65504, 1e6, -1e6])).toEqual([
      0x0000, 0x8000, 0x3c00, 0xc000, 0x3800, 0x7bff, 0x7c00, 0xfc00,
    ]);
    // 2^-24 is the smallest subnormal half; a quarter of it rounds to zero.
    expect(halves([2 ** -24, 2 ** -26, 2 ** -14])).toEqual([0x0001, 0x0000, 0x0400]);
    // 1 + 2^-11 lies halfway between 1 and the next half: to even (1); 1 + 3·2^-11 rounds up.
    expect(halves([1 + 2 ** -11, 1 + 3 * 2 ** -11, Number.NaN])).toEqual([0x3c00, 0x3c02, 0x7e00]);
  });
});
