import { describe, expect, it, vi } from 'vitest';
import { EngineCache } from '../../src/engines/engine-cache.js';

const engine = () => ({ close: vi.fn(async () => {}) });

describe('EngineCache (the chat and image directories keep their engines in one)', () => {
  it('shares one creation between concurrent callers and hands the engine out once made', async () => {
    const cache = new EngineCache<ReturnType<typeof engine>>();
    const make = vi.fn(async () => engine());
    const [a, b] = await Promise.all([cache.get('k', make), cache.get('k', make)]);
    expect(a).toBe(b);
    expect(make).toHaveBeenCalledTimes(1);
    expect(cache.created('k')).toBe(a);
    expect(cache.created('other')).toBeUndefined();
  });

  it('forgets a failed creation, so that the next call tries again', async () => {
    const cache = new EngineCache<ReturnType<typeof engine>>();
    await expect(cache.get('k', async () => Promise.reject(new Error('no model')))).rejects.toThrow('no model');
    expect(cache.created('k')).toBeUndefined();
    const made = await cache.get('k', async () => engine());
    expect(cache.created('k')).toBe(made);
  });

  it('closes every engine made, and waits for one still being made', async () => {
    const cache = new EngineCache<ReturnType<typeof engine>>();
    const first = await cache.get('a', async () => engine());
    let finish!: (e: ReturnType<typeof engine>) => void;
    const late = engine();
    void cache.get('b', () => new Promise((resolve) => (finish = resolve)));
    void cache.get('c', async () => Promise.reject(new Error('bad'))).catch(() => {});
    const closing = cache.close();
    finish(late);
    await closing;
    expect(first.close).toHaveBeenCalledTimes(1);
    expect(late.close).toHaveBeenCalledTimes(1);
  });
});
