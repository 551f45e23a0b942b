import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentOwner, segmentFileName } from '../../../src/services/usage/journal-files.js';
import { encodeRecord } from '../../../src/services/usage/journal-lines.js';
import { JournalSegment } from '../../../src/services/usage/journal-segment.js';
import { DURABLE } from '../../../src/services/usage/usage-journal.js';
import { UsageRecorder, type UsageRecorderOptions } from '../../../src/services/usage/usage-recorder.js';
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

let dir: string;
let store: SqliteStore;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'usage-recorder-'));
  store = new SqliteStore(':memory:');
});
afterEach(async () => {
  vi.restoreAllMocks();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const journalFiles = () => readdirSync(dir).filter((n) => n.endsWith('.journal'));
const stored = () => store.db.prepare('SELECT COUNT(*) AS n FROM usage_records').get() as { n: number };

/** A store whose usage writes fail until `heal()`, counting attempts. */
function failingStore(base: SqliteStore) {
  const original = base.recordUsage.bind(base);
  const state = { failing: true, attempts: 0, at: [] as number[] };
  vi.spyOn(base, 'recordUsage').mockImplementation(async (records) => {
    state.attempts++;
    state.at.push(performance.now());
    if (state.failing) throw new Error('connection terminated');
    return original(records);
  });
  return { state, heal: () => (state.failing = false) };
}

function recorder(target: Store, options: Partial<UsageRecorderOptions> = {}) {
  const errors: { err: unknown; records: number; retryInMs: number }[] = [];
  const r = new UsageRecorder(target, {
    journal: { dir, sync: 'write' },
    onError: (err, records, retryInMs) => errors.push({ err, records, retryInMs }),
    ...options,
  });
  return { r, errors };
}

describe('UsageRecorder', () => {
  it('writes queued records in one batch and counts them as pending until then', async () => {
    const batches: number[] = [];
    const original = store.recordUsage.bind(store);
    store.recordUsage = async (records) => {
      batches.push(records.length);
      return original(records);
    };
    const { r } = recorder(store, { delayMs: 60_000 });
    const durable = [100, 200, 300].map((t) => r.record(record('k', t)));
    r.record(record('other', 150));
    expect(r.pending('k', 150)).toEqual({ count: 2, oldest: 200 });
    await Promise.all(durable);
    expect((await store.usageWindow('k', 0)).count).toBe(0);
    await r.flush();
    expect(batches).toEqual([4]);
    expect(r.pending('k', 0)).toEqual({ count: 0, oldest: undefined });
    expect(await store.usageWindow('k', 150)).toEqual({ count: 2, oldest: 200 });
    await r.close();
  });

  it('flushes by itself when the batch is full', async () => {
    const { r } = recorder(store, { delayMs: 60_000, maxBatch: 2 });
    r.record(record('k', 1));
    r.record(record('k', 2));
    await vi.waitFor(() => expect(stored().n).toBe(2));
    await r.close();
  });

  it('without a journal: nothing to wait for, records still written', async () => {
    const r = new UsageRecorder(store, { onError: () => {} });
    expect(r.record(record('k', 1))).toBe(DURABLE);
    await r.flush();
    expect(stored().n).toBe(1);
  });

  it('retries a failing store with a growing, capped wait, and writes every record once when it is back', async () => {
    const { state, heal } = failingStore(store);
    const { r, errors } = recorder(store, { delayMs: 1, retryMinMs: 10, retryMaxMs: 40 });
    for (let t = 1; t <= 5; t++) await r.record(record('k', t));
    await vi.waitFor(() => expect(state.attempts).toBeGreaterThanOrEqual(6), { timeout: 5000 });
    const waits = errors.map((e) => e.retryInMs);
    // 10, 20, 40, 40 ... each ±20 %.
    expect(waits[0]).toBeGreaterThanOrEqual(8);
    expect(waits[0]).toBeLessThanOrEqual(12);
    expect(waits[1]).toBeGreaterThanOrEqual(16);
    expect(Math.max(...waits)).toBeLessThanOrEqual(48);
    expect(r.usageStats()).toMatchObject({ queued: 5, writeFailures: errors.length, setAside: 0 });
    // Still counted in usage windows while the store cannot take them.
    expect(r.pending('k', 0).count).toBe(5);
    heal();
    await vi.waitFor(() => expect(stored().n).toBe(5), { timeout: 5000 });
    expect(r.pending('k', 0).count).toBe(0);
    // The journal is emptied once the store has everything, and a clean shutdown leaves no file.
    expect(journalFiles()).toHaveLength(1);
    await r.close();
    expect(journalFiles()).toEqual([]);
  });

  it('flush does not wait out an outage; a shutdown leaves what the store did not take in the journal', async () => {
    failingStore(store);
    const { r } = recorder(store, { delayMs: 60_000, retryMinMs: 60_000 });
    await r.record(record('k', 1));
    await r.flush();
    expect(r.queued).toBe(1);
    await r.close();
    expect(journalFiles()).toHaveLength(1);
  });

  it('holds at most max_queued records in memory; the rest stay in the journal, none is dropped', async () => {
    const { heal } = failingStore(store);
    const { r } = recorder(store, { delayMs: 1, maxQueued: 5, maxBatch: 4, retryMinMs: 5, retryMaxMs: 20 });
    for (let t = 1; t <= 23; t++) await r.record(record(t % 2 ? 'a' : 'b', t));
    expect(r.usageStats()).toMatchObject({ queued: 5, journalOnly: 18 });
    // Usage windows still count every one of them.
    expect(r.pending('a', 0).count + r.pending('b', 0).count).toBe(23);
    heal();
    await vi.waitFor(() => expect(stored().n).toBe(23), { timeout: 5000 });
    await vi.waitFor(() => expect(r.usageStats()).toMatchObject({ queued: 0, journalOnly: 0, replayed: 23 }));
    expect(r.pending('a', 0).count + r.pending('b', 0).count).toBe(0);
    // Replayed records that were also in memory are not counted twice.
    const dupes = store.db
      .prepare('SELECT journal_id FROM usage_records GROUP BY journal_id HAVING COUNT(*) > 1')
      .all();
    expect(dupes).toEqual([]);
    await r.close();
  });

  it('a record the store refuses for good is set aside, not left to hold up the others', async () => {
    const original = store.recordUsage.bind(store);
    vi.spyOn(store, 'recordUsage').mockImplementation(async (records) => {
      if (records.some((r) => r.status === 999)) throw new Error('value out of range for type integer');
      return original(records);
    });
    const refused: number[] = [];
    const { r } = recorder(store, { delayMs: 1, retryMinMs: 1, retryMaxMs: 4, onRefused: (_e, n) => refused.push(n) });
    r.record({ ...record('k', 1), status: 999 });
    r.record(record('k', 2));
    r.record(record('k', 3));
    await vi.waitFor(() => expect(stored().n).toBe(2), { timeout: 5000 });
    expect(refused).toEqual([1]);
    expect(r.usageStats()).toMatchObject({ queued: 0, setAside: 1 });
    const [file] = readdirSync(dir).filter((n) => n.startsWith('usage-refused-'));
    expect(readFileSync(path.join(dir, file!), 'utf8')).toContain(',999,');
    // Later records go in at once.
    r.record(record('k', 4));
    await vi.waitFor(() => expect(stored().n).toBe(3));
    await r.close();
  });

  it('a store that is down refuses every record of a batch: nothing is set aside', async () => {
    const { state, heal } = failingStore(store);
    const { r } = recorder(store, { delayMs: 1, retryMinMs: 1, retryMaxMs: 2 });
    for (let t = 1; t <= 3; t++) r.record(record('k', t));
    await vi.waitFor(() => expect(state.attempts).toBeGreaterThan(20), { timeout: 5000 });
    expect(r.usageStats().setAside).toBe(0);
    heal();
    await vi.waitFor(() => expect(stored().n).toBe(3), { timeout: 5000 });
    await r.close();
  });

  it('replays at start the journal a process that died left, once however often it starts', async () => {
    const dead = { ...currentOwner(), pid: 2 ** 22 + 1 };
    const lines = [1, 2, 3].map((t) => encodeRecord({ ...record('k', t), journalId: `${dead.tag}.${t}` })).join('');
    // The last line was torn by the kill: no reply waited on it.
    writeFileSync(path.join(dir, segmentFileName(dead, 0)), `${lines}["${dead.tag}.4","k"`);
    // A first start replays, but "dies" before removing the file: the next start must not count twice.
    const first = recorder(store).r;
    const remove = vi.spyOn(JournalSegment.prototype, 'remove').mockImplementationOnce(() => {});
    await first.start();
    expect(stored().n).toBe(3);
    remove.mockRestore();
    const second = recorder(store).r;
    await second.start();
    expect(stored().n).toBe(3);
    expect(second.usageStats().replayed).toBe(3);
    await second.close();
    await first.close();
  });

  it('refuses the reply (1305) when the journal cannot be written, and keeps the record in memory', async () => {
    vi.spyOn(JournalSegment.prototype, 'append').mockImplementationOnce(() => {
      throw new Error('EIO: i/o error, write');
    });
    const journalErrors: number[] = [];
    const { r } = recorder(store, { onJournalError: (_err, n) => journalErrors.push(n) });
    await expect(r.record(record('k', 1))).rejects.toThrow('EIO');
    expect(journalErrors).toEqual([1]);
    expect(r.usageStats().journalFailures).toBe(1);
    await r.flush();
    expect(stored().n).toBe(1);
    await r.close();
  });
});
