import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentOwner, STALE_MS, segmentFileName } from '../../../src/services/usage/journal-files.js';
import { decodeLines, encodeRecord } from '../../../src/services/usage/journal-lines.js';
import { JournalSegment } from '../../../src/services/usage/journal-segment.js';
import { DURABLE, type JournalEntry, UsageJournal } from '../../../src/services/usage/usage-journal.js';
import type { UsageRecord } from '../../../src/stores/types.js';

const record = (keyId: string, createdAt: number, requestId?: string): UsageRecord => ({
  keyId,
  operation: 'chat.completions',
  model: 'gen-4.6',
  requestId,
  promptTokens: 3,
  completionTokens: 2,
  status: 200,
  latencyMs: 1.5,
  createdAt,
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'usage-journal-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const segments = () => readdirSync(dir).filter((n) => n.endsWith('.journal'));
const contents = () => segments().map((n) => readFileSync(path.join(dir, n), 'utf8'));

function open(options: Partial<ConstructorParameters<typeof UsageJournal>[0]> = {}) {
  const handed: { entries: JournalEntry[]; err: unknown }[] = [];
  const journal = new UsageJournal({ dir, sync: 'write', ...options }, (entries, err) => handed.push({ entries, err }));
  return { journal, handed };
}

describe('journal lines', () => {
  it('round-trip a record, and skip a torn last line', () => {
    const r = { ...record('k', 7, 'rid-1'), journalId: 'abc.1' };
    const text =
      encodeRecord(r) + encodeRecord({ ...r, journalId: 'abc.2', model: undefined }) + encodeRecord(r).slice(0, 20);
    const { records, skipped } = decodeLines(text);
    expect(records).toEqual([r, { ...r, journalId: 'abc.2', model: undefined }]);
    expect(skipped).toBe(1);
  });

  it('round-trip the money of a record, and read lines written without it', () => {
    const r = { ...record('k', 7, undefined), journalId: 'abc.3' };
    const priced = { ...r, cachedTokens: 3, cost: 1_234, accountId: 'acct', reservationId: 'res-1' };
    const free = { ...r, cost: 0 };
    const { records } = decodeLines(encodeRecord(priced) + encodeRecord(free) + encodeRecord(r));
    expect(records).toEqual([priced, { ...free, cachedTokens: 0, accountId: undefined, reservationId: undefined }, r]);
    // A cost that is not a whole amount is not a record.
    const bad = encodeRecord(priced).replace('1234', '1.5');
    expect(decodeLines(bad)).toEqual({ records: [], skipped: 1 });
  });
});

describe('UsageJournal', () => {
  it('writes the first record of a turn before append returns, in a private file (write: nothing to wait for)', async () => {
    const { journal, handed } = open();
    for (let t = 1; t <= 3; t++) {
      expect(journal.append(record('k', t))).toBe(DURABLE);
      await nextTurn();
    }
    const [text] = contents();
    expect(decodeLines(text!).records.map((r) => r.createdAt)).toEqual([1, 2, 3]);
    expect(statSync(path.join(dir, segments()[0]!)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(handed.map((h) => h.entries.length)).toEqual([1, 1, 1]);
    journal.close();
  });

  it('gathers the records that follow the first of a turn into one write at its end, which their replies wait for', async () => {
    const { journal, handed } = open();
    const append = vi.spyOn(JournalSegment.prototype, 'append');
    const results = [1, 2, 3, 4].map((t) => journal.append(record('k', t)));
    expect(results[0]).toBe(DURABLE);
    expect(decodeLines(contents()[0]!).records.map((r) => r.createdAt)).toEqual([1]);
    let durable = false;
    const rest = Promise.all(results.slice(1)).then(() => {
      durable = true;
    });
    await Promise.resolve();
    expect(durable).toBe(false);
    await rest;
    expect(decodeLines(contents()[0]!).records.map((r) => r.createdAt)).toEqual([1, 2, 3, 4]);
    expect(append).toHaveBeenCalledTimes(2);
    expect(handed.map((h) => h.entries.map((e) => e.record.createdAt))).toEqual([[1], [2, 3, 4]]);
    // Ids of one process sort in the order they were made (the store's index takes them at its end).
    const ids = handed.flatMap((h) => h.entries.map((e) => e.record.journalId!));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => id.startsWith(`${journal.owner.tag}.`))).toBe(true);
    journal.close();
  });

  it('close writes what a turn gathered', () => {
    const { journal } = open();
    journal.append(record('k', 1));
    void journal.append(record('k', 2));
    journal.close();
    expect(decodeLines(contents()[0]!).records.map((r) => r.createdAt)).toEqual([1, 2]);
  });

  it('empties its file once every record in it is in the store', async () => {
    const { journal, handed } = open();
    journal.append(record('k', 1));
    await nextTurn();
    journal.append(record('k', 2));
    journal.stored(handed[0]!.entries);
    expect(decodeLines(contents()[0]!).records).toHaveLength(2);
    journal.stored(handed[1]!.entries);
    expect(contents()).toEqual(['']);
    journal.close();
  });

  it('starts a new file past segmentBytes, and removes the old one once its records are stored', async () => {
    const { journal, handed } = open({ segmentBytes: 200 });
    for (let i = 0; i < 4; i++) await journal.append(record('k', i));
    expect(segments().length).toBeGreaterThan(1);
    for (const h of handed) journal.stored(h.entries);
    expect(segments()).toHaveLength(1);
    expect(contents()).toEqual(['']);
    journal.close();
  });

  it('with fsync: one fsync for the records written while the previous one ran (group commit)', async () => {
    const releases: (() => void)[] = [];
    const sync = vi
      .spyOn(JournalSegment.prototype, 'sync')
      .mockImplementation(() => new Promise<void>((resolve) => releases.push(resolve)));
    const { journal, handed } = open({ sync: 'fsync' });
    let durable = 0;
    const first = journal.append(record('k', 1)).then(() => durable++);
    expect(sync).toHaveBeenCalledTimes(1);
    // The first fsync is running: the next three records are written and wait for one more.
    const later: Promise<unknown>[] = [];
    for (let turn = 0; turn < 3; turn++) {
      later.push(journal.append(record('k', 10 + turn)).then(() => durable++));
      await nextTurn();
    }
    expect(decodeLines(contents()[0]!).records).toHaveLength(4);
    expect(durable).toBe(0);
    expect(handed).toEqual([]);
    releases[0]!();
    await first;
    expect(durable).toBe(1);
    expect(sync).toHaveBeenCalledTimes(2);
    releases[1]!();
    await Promise.all(later);
    expect(durable).toBe(4);
    expect(sync).toHaveBeenCalledTimes(2);
    expect(handed.map((h) => h.entries.length)).toEqual([1, 3]);
    journal.close();
  });

  it('a failed write rejects its replies, leaves no torn line and hands the records over (kept in memory)', async () => {
    const { journal, handed } = open();
    await journal.append(record('k', 1));
    vi.spyOn(JournalSegment.prototype, 'append').mockImplementationOnce(() => {
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    });
    await expect(journal.append(record('k', 2))).rejects.toThrow('no space');
    expect(handed[1]!.err).toBeInstanceOf(Error);
    expect(handed[1]!.entries[0]!.segment).toBeUndefined();
    await journal.append(record('k', 3));
    expect(decodeLines(contents()[0]!)).toMatchObject({ skipped: 0, records: [{ createdAt: 1 }, { createdAt: 3 }] });
    journal.close();
  });

  it('adopts the segments of a process that is gone, not those of a live one, and a stale one after a while', () => {
    const line = encodeRecord({ ...record('k', 1), journalId: 'x.1' });
    const dead = { ...currentOwner(), pid: 2 ** 22 + 1 }; // above any pid_max: never alive
    const live = { ...currentOwner(), pid: process.ppid };
    const otherHost = { ...currentOwner(), host: 'elsewhere' };
    writeFileSync(path.join(dir, segmentFileName(dead, 0)), line);
    writeFileSync(path.join(dir, segmentFileName(live, 0)), line);
    writeFileSync(path.join(dir, segmentFileName(otherHost, 0)), line);
    writeFileSync(path.join(dir, 'unrelated.txt'), 'x');
    const { journal } = open();
    expect(journal.adoptOrphans()).toBe(1);
    expect(segments()).not.toContain(segmentFileName(dead, 0));
    const [adopted] = journal.toReplay();
    expect(journal.read(adopted!).map((r) => r.journalId)).toEqual(['x.1']);
    // Untouched for longer than STALE_MS: its owner stopped its heartbeat, whatever its pid says.
    const old = new Date(Date.now() - STALE_MS - 1000);
    utimesSync(path.join(dir, segmentFileName(otherHost, 0)), old, old);
    expect(journal.adoptOrphans()).toBe(1);
    expect(segments()).toContain(segmentFileName(live, 0));
    journal.replayed(adopted!);
    journal.close();
  });

  it('keeps spilled records for a replay from the file, sealing the active segment first', async () => {
    const { journal, handed } = open();
    await journal.append(record('k', 1));
    await journal.append(record('k', 2));
    const [first, second] = handed.map((h) => h.entries[0]!);
    journal.stored([first!]);
    journal.spill({ record: second!.record, segment: second!.segment! });
    const [segment, ...more] = journal.toReplay();
    expect(more).toEqual([]);
    expect(segment!.spilledAt.get('k')).toEqual([2]);
    expect(journal.read(segment!).map((r) => r.createdAt)).toEqual([1, 2]);
    await journal.append(record('k', 3));
    expect(segments()).toHaveLength(2);
    journal.replayed(segment!);
    expect(segments()).toHaveLength(1);
    journal.close();
  });
});
