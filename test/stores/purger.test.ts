import { describe, expect, it, vi } from 'vitest';
import { startStorePurger } from '../../src/stores/purger.js';
import type { PurgeOptions, Store } from '../../src/stores/types.js';

describe('the store purger', () => {
  it('purges at start with the configured cap and request-id age, then on its interval', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    try {
      const calls: PurgeOptions[] = [];
      const store = {
        purge: async (o: PurgeOptions) => {
          calls.push(o);
          return { cacheEntries: 0, requestIds: 0 };
        },
      };
      const log = { error: vi.fn(), isLevelEnabled: () => false };
      const stop = startStorePurger(
        store as unknown as Store,
        { intervalMs: 60_000, cacheMaxBytes: 5, requestIdsKeepMs: 400 },
        log,
      );
      expect(calls).toEqual([{ now: 1_000_000, cacheMaxBytes: 5, requestIdsBefore: 999_600 }]);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(calls).toHaveLength(2);
      stop();
      await vi.advanceTimersByTimeAsync(600_000);
      expect(calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a failing store is logged, never thrown, and tried again at the next interval', async () => {
    vi.useFakeTimers();
    try {
      let n = 0;
      const store = { purge: async () => Promise.reject(new Error(`disk ${++n}`)) };
      const log = { error: vi.fn(), isLevelEnabled: () => false };
      const stop = startStorePurger(
        store as unknown as Store,
        { intervalMs: 1_000, cacheMaxBytes: 0, requestIdsKeepMs: 0 },
        log,
      );
      await vi.advanceTimersByTimeAsync(1_000);
      expect(log.error).toHaveBeenCalledTimes(2);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('deletes audit records past audit.retention_days, and none when it is 0', async () => {
    vi.useFakeTimers({ now: 10_000_000 });
    try {
      const deleted: number[] = [];
      const store = {
        purge: async () => ({ cacheEntries: 0, requestIds: 0 }),
        audit: { deleteBefore: async (before: number) => deleted.push(before) },
      };
      const log = { error: vi.fn(), isLevelEnabled: () => false };
      const options = { intervalMs: 1_000, cacheMaxBytes: 0, requestIdsKeepMs: 0 };
      const keeping = startStorePurger(store as unknown as Store, { ...options, auditKeepMs: 86_400_000 }, log);
      await vi.advanceTimersByTimeAsync(0);
      expect(deleted).toEqual([10_000_000 - 86_400_000]);
      keeping();
      const forever = startStorePurger(store as unknown as Store, { ...options, auditKeepMs: 0 }, log);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(deleted).toHaveLength(1);
      forever();
      expect(log.error).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
