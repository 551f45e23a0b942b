import { describe, expect, it } from 'vitest';
import { RequestRefusedByBackend } from '../../../src/engines/chat/pool-errors.js';
import { createImagePool } from '../../../src/engines/image/pool.js';
import type { ImageEngine, ImageJobHooks } from '../../../src/engines/image/types.js';
import { ApiError } from '../../../src/errors/api-error.js';

type Behaviour = 'ok' | 'down' | 'fail-after-start' | 'refuse';

function fake(name: string, behaviour: () => Behaviour, log: string[]): ImageEngine {
  return {
    async generate(_request, _signal, hooks?: ImageJobHooks) {
      log.push(name);
      const b = behaviour();
      if (b === 'down') throw new ApiError(1234, `${name} unreachable`);
      if (b === 'refuse')
        throw new ApiError(1234, `${name} refused`, { cause: new RequestRefusedByBackend(400, 'bad') });
      hooks?.started?.();
      if (b === 'fail-after-start') throw new ApiError(1234, `${name} failed while running`);
      return { bytes: Buffer.from(name), mime: 'image/png', metadata: { name } };
    },
    close: async () => undefined,
  };
}

const request = { prompt: 'x', size: { width: 512, height: 512 }, quality: 'hd' as const, seed: 1 };
const signal = () => new AbortController().signal;

describe('image deployment pool', () => {
  it('shares the load across deployments', async () => {
    const log: string[] = [];
    const pool = createImagePool([fake('a', () => 'ok', log), fake('b', () => 'ok', log)]);
    await Promise.all([pool.generate(request, signal()), pool.generate(request, signal())]);
    expect(log.sort()).toEqual(['a', 'b']);
  });

  it('moves a job that failed before it started, and skips the unhealthy deployment afterwards', async () => {
    const log: string[] = [];
    let now = 0;
    const pool = createImagePool([fake('a', () => 'down', log), fake('b', () => 'ok', log)], {
      now: () => now,
      cooldownMs: 1000,
    });
    expect((await pool.generate(request, signal())).metadata).toEqual({ name: 'b' });
    log.length = 0;
    await pool.generate(request, signal());
    await pool.generate(request, signal());
    expect(log).toEqual(['b', 'b']);
    now = 2000;
    log.length = 0;
    await pool.generate(request, signal()).catch(() => undefined);
    expect(log[0]).toBe('a');
  });

  it('never retries a job the engine had started, nor one the backend refused', async () => {
    for (const behaviour of ['fail-after-start', 'refuse'] as const) {
      const log: string[] = [];
      const pool = createImagePool([fake('a', () => behaviour, log), fake('b', () => behaviour, log)]);
      let started = 0;
      await expect(pool.generate(request, signal(), { started: () => started++ })).rejects.toMatchObject({
        code: 1234,
      });
      expect(log).toHaveLength(1);
      expect(started).toBe(behaviour === 'refuse' ? 0 : 1);
    }
  });

  it('fails with the last error when every deployment is down', async () => {
    const log: string[] = [];
    const pool = createImagePool([fake('a', () => 'down', log), fake('b', () => 'down', log)]);
    await expect(pool.generate(request, signal())).rejects.toThrow(/unreachable/);
    expect(log.sort()).toEqual(['a', 'b']);
  });
});
