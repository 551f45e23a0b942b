import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import { checkGguf, ModelFileError } from '../../../src/engines/chat/llama-cpp/gguf-check.js';
import { encodeGguf } from '../../../src/test-models/gguf-writer.js';
import { randomModel } from '../../../src/test-models/random-model.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gguf-check-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function modelWithout(key: string): Promise<string> {
  const file = randomModel();
  delete file.metadata[key];
  const path = join(dir, `${key}.gguf`);
  await writeFile(path, encodeGguf(file));
  return path;
}

describe('GGUF check before loading', () => {
  it('accepts a valid model', async () => {
    const path = join(dir, 'ok.gguf');
    await writeFile(path, encodeGguf(randomModel()));
    await expect(checkGguf(path)).resolves.toMatchObject({ version: 3 });
  });

  it('a missing file is a clear error', async () => {
    const err = await checkGguf(join(dir, 'nope.gguf')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelFileError);
    expect(String(err)).toMatch(/does not exist or is not readable/);
  });

  it('a file that is not GGUF is an error', async () => {
    const path = join(dir, 'text.gguf');
    await writeFile(path, 'hello, I am not a model');
    await expect(checkGguf(path)).rejects.toThrow(/not a readable GGUF file/);
  });

  it.each([
    'llama.feed_forward_length',
    'llama.attention.head_count',
    'llama.embedding_length',
    'tokenizer.ggml.merges',
  ])('a model without %s is a thrown error, not a crashed process', async (key) => {
    const path = await modelWithout(key);
    await expect(createLlamaCppEngine({ modelPath: path, threads: 1 })).rejects.toBeInstanceOf(ModelFileError);
    await expect(checkGguf(path)).rejects.toThrow(key.replace(/^tokenizer\./, 'tokenizer.'));
  });
});
