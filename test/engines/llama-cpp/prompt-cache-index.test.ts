import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadConfig } from '../../../src/config/load.js';
import { resolveOptions } from '../../../src/engines/chat/llama-cpp/options.js';
import { PromptCacheIndex, type PromptCacheLimits } from '../../../src/engines/chat/llama-cpp/prompt-cache-index.js';
import { CHAT_ENGINES } from '../../../src/engines/chat/registry.js';
import { resolveDeployments } from '../../../src/services/chat/chat-deployments.js';
import { engineContext } from '../../../src/services/chat/engine-directory.js';

const limits = (o: Partial<PromptCacheLimits> = {}): PromptCacheLimits => ({
  budgetBytes: 1000,
  maxEntries: 10,
  minTokens: 4,
  ...o,
});
const seq = (start: number, n: number) => Array.from({ length: n }, (_, i) => start + i);

/** Reserves and admits `tokens` at `bytes`; returns the key and the keys to delete. */
function save(index: PromptCacheIndex, tokens: number[], bytes: number) {
  const key = index.reserve(tokens);
  if (key === undefined) throw new Error('not reserved');
  return { key, gone: index.admit(key, tokens, bytes) };
}

describe('prompt cache policy', () => {
  it('matches the state sharing the longest prefix, the smaller file on a tie, whole states only when asked', () => {
    const index = new PromptCacheIndex('m', limits());
    save(index, seq(0, 10), 100);
    save(index, [...seq(0, 6), 99, 98], 80);
    expect(index.best([...seq(0, 8), 7])).toMatchObject({ length: 8, entry: { tokens: seq(0, 10) } });
    expect(index.best([...seq(0, 6), 99, 5])).toMatchObject({ length: 7, entry: { bytes: 80 } });
    expect(index.best(seq(0, 6))).toMatchObject({ length: 6, entry: { bytes: 80 } });
    expect(index.best([...seq(0, 8), 7], true)).toBeUndefined();
    expect(index.best([...seq(0, 10), 42], true)).toMatchObject({ length: 10 });
    expect(index.best([5, 6, 7])).toBeUndefined();
  });

  it('saves nothing short, already kept, being saved, or past the budget at the learnt bytes a token', () => {
    const index = new PromptCacheIndex('m', limits({ budgetBytes: 500 }));
    expect(index.reserve(seq(0, 3))).toBeUndefined();
    const key = index.reserve(seq(0, 8));
    expect(key).toBeDefined();
    expect(index.reserve(seq(0, 8))).toBeUndefined();
    index.admit(key as string, seq(0, 8), 80);
    // A prefix of a kept state is kept already; a longer prompt is not.
    expect(index.reserve(seq(0, 6))).toBeUndefined();
    expect(index.reserve(seq(0, 9))).toBeDefined();
    // 10 bytes a token: 60 tokens would not fit 500 bytes.
    expect(index.reserve(seq(100, 60))).toBeUndefined();
    const failed = index.reserve(seq(200, 8)) as string;
    index.cancel(failed);
    expect(index.reserve(seq(200, 8))).toBe(failed);
  });

  it('keeps the bytes within the budget, dropping the least recently used first', () => {
    const index = new PromptCacheIndex('m', limits({ budgetBytes: 300 }));
    const a = save(index, seq(0, 10), 100);
    const b = save(index, seq(100, 10), 100);
    const c = save(index, seq(200, 10), 100);
    expect(index.bytes).toBe(300);
    // Restoring a marks it used: b is now the oldest.
    const hit = index.best(seq(0, 10));
    index.pin(hit?.entry as never);
    index.unpin(hit?.entry as never);
    const d = save(index, seq(300, 10), 150);
    expect(d.gone).toEqual([b.key, c.key]);
    expect(index.bytes).toBe(250);
    expect(index.best(seq(0, 10))?.entry.key).toBe(a.key);
    expect(index.best(seq(100, 10))).toBeUndefined();
  });

  it('never drops a state being restored; a new state that cannot fit beside it is not kept', () => {
    const index = new PromptCacheIndex('m', limits({ budgetBytes: 200 }));
    const a = save(index, seq(0, 10), 150);
    const hit = index.best(seq(0, 10))?.entry;
    index.pin(hit as never);
    const b = save(index, seq(100, 10), 100);
    expect(b.gone).toEqual([b.key]);
    expect(index.size).toBe(1);
    index.unpin(hit as never);
    const c = save(index, seq(200, 10), 100);
    expect(c.gone).toEqual([a.key]);
    expect(index.bytes).toBe(100);
  });

  it('keeps at most maxEntries states', () => {
    const index = new PromptCacheIndex('m', limits({ maxEntries: 2 }));
    const a = save(index, seq(0, 10), 1);
    save(index, seq(100, 10), 1);
    expect(save(index, seq(200, 10), 1).gone).toEqual([a.key]);
    expect(index.size).toBe(2);
  });

  it('keys a state by its model and context as well as its tokens', () => {
    const one = new PromptCacheIndex('["/m/a.gguf",1,2,512,8]', limits());
    const other = new PromptCacheIndex('["/m/a.gguf",1,2,1024,8]', limits());
    expect(one.keyOf(seq(0, 10))).toMatch(/^[0-9a-f]{40}$/);
    expect(one.keyOf(seq(0, 10))).toBe(one.keyOf(seq(0, 10)));
    expect(one.keyOf(seq(0, 10))).not.toBe(one.keyOf(seq(0, 11)));
    expect(one.keyOf(seq(0, 10))).not.toBe(other.keyOf(seq(0, 10)));
  });

  it('is off at a budget of 0 and refuses limits that are not whole numbers >= 0', () => {
    const off = new PromptCacheIndex('m', limits({ budgetBytes: 0 }));
    expect(off.enabled).toBe(false);
    expect(off.reserve(seq(0, 10))).toBeUndefined();
    expect(() => new PromptCacheIndex('m', limits({ budgetBytes: -1 }))).toThrow(
      /prompt cache: budgetBytes must be an integer >= 0/,
    );
  });
});

describe('prompt cache configuration', () => {
  const dirWith = (yaml: string) => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'prompt-cache-config-'));
    writeFileSync(path.join(cwd, 'gen-platform.yaml'), yaml);
    return cwd;
  };
  const log = { info() {}, error() {}, warn() {} };

  it('embedded.prompt_cache_bytes: 1 GiB by default, 0 turns it off, and reaches the engines', () => {
    const context = (yaml: string) => engineContext(loadConfig({ cwd: dirWith(yaml), env: {} }).config, log, 2, '.');
    expect(context('{}\n').promptCacheBytes).toBe(1024 ** 3);
    expect(context('embedded:\n  prompt_cache_bytes: 0\n').promptCacheBytes).toBe(0);
    expect(resolveOptions({ modelPath: 'm.gguf', threads: 1 }).promptCacheBytes).toBe(0);
    expect(() => resolveOptions({ modelPath: 'm.gguf', threads: 1, promptCacheBytes: 1.5 })).toThrow(
      /promptCacheBytes must be an integer >= 0/,
    );
  });

  it.each([
    ['embedded:\n  prompt_cache_bytes: -1\n', /embedded\.prompt_cache_bytes/],
    ['embedded:\n  prompt_cache_bytes: lots\n', /embedded\.prompt_cache_bytes/],
  ])('refuses %j naming the key', (yaml, pattern) => {
    const cwd = dirWith(yaml);
    expect(() => loadConfig({ cwd, env: {} })).toThrow(ConfigError);
    expect(() => loadConfig({ cwd, env: {} })).toThrow(pattern);
  });

  it("a deployment's own prompt_cache_bytes: a whole number >= 0, named when it is not", () => {
    const deployments = (bytes: string) => () =>
      resolveDeployments(
        loadConfig({
          cwd: dirWith(
            `models:\n  gen-4.6:\n    deployments:\n      - engine: llama-cpp\n        model: m.gguf\n        prompt_cache_bytes: ${bytes}\n`,
          ),
          env: {},
        }).config,
        CHAT_ENGINES,
      );
    expect(deployments('0')().get('gen-4.6')?.[0]?.options['prompt_cache_bytes']).toBe(0);
    expect(deployments('-5')).toThrow(ConfigError);
    expect(deployments('-5')).toThrow(/models\.gen-4\.6\.deployments\[0\]\.prompt_cache_bytes/);
  });
});
