import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationRecord } from '../../src/stores/conversations.js';
import { startStorePurger } from '../../src/stores/purger.js';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import type { PurgeOptions, Store } from '../../src/stores/types.js';

const DAY = 86_400_000;
const conversation = (id: string, createdAt: number): ConversationRecord => ({
  id,
  keyId: 'key-a',
  agentId: 'general_translation',
  settings: {},
  sourceText: 'x'.repeat(100_000),
  translation: 'y'.repeat(100_000),
  usage: { promptTokens: 1, completionTokens: 1, totalCalls: 1 },
  createdAt,
});

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

  it('deletes agent conversations past agents.conversation_retention_days from the store, keeping newer ones', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'purger-'));
    const store = new SqliteStore(path.join(dir, 'store.db'));
    const log = { error: vi.fn(), isLevelEnabled: () => false };
    try {
      const now = Date.now();
      // The attack: a key makes conversations without end; without a retention they stay for ever.
      for (let i = 0; i < 20; i++) await store.conversations.save(conversation(`old-${i}`, now - 31 * DAY));
      await store.conversations.save(conversation('recent', now - 29 * DAY));
      const stop = startStorePurger(
        store,
        { intervalMs: 60_000, cacheMaxBytes: 1 << 20, requestIdsKeepMs: DAY, conversationsKeepMs: 30 * DAY },
        log,
      );
      await vi.waitFor(async () => expect(await store.conversations.get('key-a', 'old-0')).toBeUndefined());
      stop();
      for (let i = 0; i < 20; i++) expect(await store.conversations.get('key-a', `old-${i}`)).toBeUndefined();
      expect((await store.conversations.get('key-a', 'recent'))?.id).toBe('recent');
      expect(log.error).not.toHaveBeenCalled();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a store fault in one step is logged and the other steps still run; none ends the process', async () => {
    vi.useFakeTimers({ now: 50 * DAY });
    try {
      const conversationsBefore: number[] = [];
      let fail = true;
      const store = {
        purge: async () => Promise.reject(new Error('database is locked')),
        audit: {
          deleteBefore: () => {
            // Thrown, not rejected: still only logged.
            throw new Error('no such table: audit');
          },
        },
        conversations: {
          deleteBefore: async (before: number) => {
            conversationsBefore.push(before);
            if (fail) throw new Error('disk I/O error');
            return 3;
          },
        },
      };
      const log = { error: vi.fn(), isLevelEnabled: () => false };
      const options = { intervalMs: 1_000, cacheMaxBytes: 0, requestIdsKeepMs: 0 };
      const stop = startStorePurger(
        store as unknown as Store,
        { ...options, auditKeepMs: DAY, conversationsKeepMs: 30 * DAY },
        log,
      );
      await vi.advanceTimersByTimeAsync(0);
      expect(conversationsBefore).toEqual([20 * DAY]);
      expect(log.error).toHaveBeenCalledTimes(3);
      expect(log.error.mock.calls.map((c) => c[1])).toEqual([
        expect.stringMatching(/cache/),
        expect.stringMatching(/audit/),
        expect.stringMatching(/agent conversations/),
      ]);
      fail = false;
      await vi.advanceTimersByTimeAsync(1_000);
      expect(conversationsBefore).toHaveLength(2);
      expect(log.error).toHaveBeenCalledTimes(5);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
