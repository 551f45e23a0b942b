import { describe, expect, it } from 'vitest';
import { UsageRecorder } from '../../../src/services/usage/usage-recorder.js';
import { SqliteStore } from '../../../src/stores/sqlite/sqlite-store.js';
import type { Store, UsageRecord } from '../../../src/stores/types.js';

const record = (keyId: string, createdAt: number): UsageRecord => ({
  keyId,
  operation: 'tokenizer',
  model: 'gen-4.6',
  requestId: undefined,
  promptTokens: 3,
  completionTokens: 0,
  status: 200,
  latencyMs: 1,
  createdAt,
});

describe('UsageRecorder', () => {
  it('writes queued records in one batch and counts them as pending until then', async () => {
    const store = new SqliteStore(':memory:');
    const batches: number[] = [];
    const original = store.recordUsage.bind(store);
    store.recordUsage = async (records) => {
      batches.push(records.length);
      return original(records);
    };
    const recorder = new UsageRecorder(store, { delayMs: 60_000, onError: () => {} });
    for (const t of [100, 200, 300]) recorder.record(record('k', t));
    recorder.record(record('other', 150));
    expect(recorder.pending('k', 150)).toEqual({ count: 2, oldest: 200 });
    expect((await store.usageWindow('k', 0)).count).toBe(0);
    await recorder.flush();
    expect(batches).toEqual([4]);
    expect(recorder.pending('k', 0)).toEqual({ count: 0, oldest: undefined });
    expect(await store.usageWindow('k', 150)).toEqual({ count: 2, oldest: 200 });
    await store.close();
  });

  it('flushes by itself when the batch is full', async () => {
    const store = new SqliteStore(':memory:');
    const recorder = new UsageRecorder(store, { delayMs: 60_000, maxBatch: 2, onError: () => {} });
    recorder.record(record('k', 1));
    recorder.record(record('k', 2));
    await recorder.flush();
    expect((await store.usageTotals('k')).requests).toBe(2);
    await store.close();
  });

  it('reports a failed write instead of throwing it at a request', async () => {
    const failing = { recordUsage: async () => Promise.reject(new Error('disk full')) } as unknown as Store;
    const errors: [unknown, number][] = [];
    const recorder = new UsageRecorder(failing, { onError: (err, n) => errors.push([err, n]) });
    recorder.record(record('k', 1));
    await recorder.flush();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[1]).toBe(1);
  });
});
