import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { resolveOptions } from '../../../src/engines/chat/llama-cpp/options.js';
import { engineContext } from '../../../src/services/chat/engine-directory.js';

const log = { info() {}, error() {}, warn() {} };
const contextFrom = (yaml: string) => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'engine-options-'));
  writeFileSync(path.join(cwd, 'gen-platform.yaml'), yaml);
  return engineContext(loadConfig({ cwd, env: {} }).config, log, 2, cwd);
};

describe('tokenizer thread queue', () => {
  it('comes from tokenizer.thread_queue_size, 16 when unset', () => {
    expect(contextFrom('{}\n').tokenizerQueueSize).toBe(16);
    expect(contextFrom('tokenizer:\n  thread_queue_size: 3\n').tokenizerQueueSize).toBe(3);
  });

  it('reaches the embedded engine, which refuses a negative one', () => {
    expect(resolveOptions({ modelPath: 'm.gguf', threads: 1 }).tokenizerQueueSize).toBe(16);
    expect(resolveOptions({ modelPath: 'm.gguf', threads: 1, tokenizerQueueSize: 3 }).tokenizerQueueSize).toBe(3);
    expect(() => resolveOptions({ modelPath: 'm.gguf', threads: 1, tokenizerQueueSize: -1 })).toThrow(
      /tokenizerQueueSize must be an integer >= 0/,
    );
  });
});
