import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGgufFileInfo } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGguf, writeGguf } from '../../src/test-models/gguf-writer.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gguf-writer-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('GGUF v3 writer', () => {
  it('round-trips metadata of every value type and tensor infos through readGgufFileInfo', async () => {
    const path = join(dir, 'rt.gguf');
    await writeGguf(path, {
      metadata: {
        'general.architecture': { type: 'string', value: 'llama' },
        'test.u32': { type: 'u32', value: 4_000_000_000 },
        'test.i32': { type: 'i32', value: -7 },
        'test.f32': { type: 'f32', value: 0.5 },
        'test.bool': { type: 'bool', value: true },
        'test.strings': { type: 'string[]', value: ['a', 'é', '<|im_end|>'] },
        'test.ints': { type: 'i32[]', value: [1, -2, 3] },
        'test.floats': { type: 'f32[]', value: [0.25, -1] },
      },
      tensors: [
        { name: 'a', dims: [3, 2], data: new Float32Array([1, 2, 3, 4, 5, 6]) },
        { name: 'b', dims: [5], data: new Float32Array(5) },
      ],
    });
    const info = await readGgufFileInfo(path, { logWarnings: false });
    expect(info.version).toBe(3);
    const m = info.metadata as unknown as Record<string, Record<string, unknown>>;
    expect(m.test).toEqual({
      u32: 4_000_000_000,
      i32: -7,
      f32: 0.5,
      bool: true,
      strings: ['a', 'é', '<|im_end|>'],
      ints: [1, -2, 3],
      floats: [0.25, -1],
    });
    expect(
      info.tensorInfo?.map((t) => ({ name: t.name, dims: t.dimensions.map(Number), offset: Number(t.offset) })),
    ).toEqual([
      { name: 'a', dims: [3, 2], offset: 0 },
      { name: 'b', dims: [5], offset: 32 },
    ]);
    expect(info.tensorInfoSize).toBeGreaterThan(0);
  });

  it('aligns the tensor data to 32 bytes', () => {
    const buf = encodeGguf({ metadata: {}, tensors: [{ name: 'x', dims: [1], data: new Float32Array([7]) }] });
    expect(buf.length % 32).toBe(0);
    expect(buf.readFloatLE(buf.length - 32)).toBe(7);
  });

  it('refuses a tensor whose data does not match its dims', () => {
    expect(() =>
      encodeGguf({ metadata: {}, tensors: [{ name: 'x', dims: [2, 2], data: new Float32Array(3) }] }),
    ).toThrow(/dims hold 4 values/);
  });
});
