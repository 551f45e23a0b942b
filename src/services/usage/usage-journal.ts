import { appendFileSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { UsageRecord } from '../../stores/types.js';
import { ensurePrivateDir } from '../../util/private-files.js';
import { currentOwner, type JournalOwner, orphanSegments, segmentFileName } from './journal-files.js';
import { decodeLines, encodeRecord } from './journal-lines.js';
import { JournalSegment } from './journal-segment.js';

export type JournalSync = 'write' | 'fsync';

export interface UsageJournalOptions {
  dir: string;
  /** `write`: in the operating system when `append` returns; `fsync`: on the disk when its promise resolves. */
  sync: JournalSync;
  /** A segment past this size takes no more records (it goes once they are all stored). */
  segmentBytes?: number;
}

/** A record, and the journal segment it is in (to count it stored or spilled); none if its write failed. */
export interface JournalEntry {
  record: UsageRecord;
  segment: JournalSegment | undefined;
}

/** Records waiting together: for one write at the end of a turn, or for one fsync. */
interface Group {
  entries: JournalEntry[];
  promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

const SEGMENT_BYTES = 4 * 1024 * 1024;

/** What `append` returns for a record already durable: one resolved promise for all of them. */
export const DURABLE: Promise<void> = Promise.resolve();

/**
 * The usage journal of this process: records appended to a private file before their replies end.
 * The first record of a turn of the event loop is written at once, in the call (a write to the page
 * cache, a few µs): a lone reply never waits for a later phase of the loop, which cost it more than
 * the write (docs/benchmarks.md). The records that follow it in the same turn (replies ending
 * together under load) are gathered and written in one write when the turn's I/O callbacks are
 * done (`setImmediate`), and their replies wait for that: one syscall for the turn, not one each.
 * With `fsync` the flush to the disk is shared too (group commit): one fsync runs at a time, and
 * the records written meanwhile wait together for the next one.
 * A segment is emptied once all its records are in the store, and replaced by a new one when it
 * grows past `segmentBytes` while some are not.
 */
export class UsageJournal {
  readonly owner: JournalOwner = currentOwner();
  private active: JournalSegment;
  /** Segments that take no more records, until their records are in the store. */
  private readonly sealed = new Set<JournalSegment>();
  private next = 0;
  private seq = 0;
  /** Records written and waiting for the next fsync (`fsync` only). */
  private group: Group | undefined = undefined;
  /** The fsync running, and the segments it flushes. */
  private syncing: Promise<void> | undefined = undefined;
  private syncingNow: JournalSegment[] = [];
  private readonly segmentBytes: number;
  /** A record was written in this turn of the event loop: later ones wait for `writeGathered`. */
  private turnWritten = false;
  /** Records of this turn after its first, with their lines, and the promise their replies wait on. */
  private gathered: (Group & { lines: string[] }) | undefined = undefined;

  constructor(
    private readonly options: UsageJournalOptions,
    /**
     * Called with each turn's records once they are durable, in order, and also when the journal
     * failed them (their promise rejects): a record is never dropped, it is then held in memory only.
     */
    private readonly handOver: (entries: JournalEntry[], err?: unknown) => void,
  ) {
    ensurePrivateDir(options.dir);
    this.segmentBytes = options.segmentBytes ?? SEGMENT_BYTES;
    this.active = this.newSegment();
  }

  /**
   * Gives the record its journal id and writes it. With `write` the first record of a turn is
   * durable when this returns (`DURABLE`, resolved already) and later ones when their promise
   * resolves, at the end of the turn; with `fsync` the promise resolves once it is on the disk
   * (shared by the records of one fsync). A failed write is a rejected promise, the record handed
   * over all the same.
   */
  append(record: UsageRecord): Promise<void> {
    // Fixed width: ids of one process sort in the order they were made, so the store's unique
    // index on them takes each batch at its end rather than across its pages.
    // A record may come with its id (a task's settlement: whoever records it, it is stored once).
    record.journalId ??= `${this.owner.tag}.${(++this.seq).toString(36).padStart(8, '0')}`;
    const entry: JournalEntry = { record, segment: undefined };
    if (this.turnWritten) {
      const gathered = this.gathered ?? this.openGathered();
      gathered.entries.push(entry);
      gathered.lines.push(encodeRecord(record));
      return gathered.promise;
    }
    this.turnWritten = true;
    setImmediate(this.endTurn);
    const err = this.write([entry], encodeRecord(record));
    if (err !== undefined) return rejected(err);
    if (this.options.sync === 'write') return DURABLE;
    return this.joinSync([entry]);
  }

  /** Records of the journal now in the store: a segment whose records all are is emptied or removed. */
  stored(entries: readonly JournalEntry[]): void {
    const touched = new Set<JournalSegment>();
    for (const { segment } of entries) {
      if (segment === undefined) continue;
      segment.stored++;
      touched.add(segment);
    }
    for (const segment of touched) this.release(segment);
  }

  /** A record that memory cannot hold: it stays in its segment only, to be read back from there. */
  spill(entry: JournalEntry & { segment: JournalSegment }): void {
    const { segment, record } = entry;
    segment.spilled++;
    segment.replay = true;
    const times = segment.spilledAt.get(record.keyId);
    if (times) times.push(record.createdAt);
    else segment.spilledAt.set(record.keyId, [record.createdAt]);
  }

  /**
   * Segments whose records must be read back, oldest first; the active one is sealed first if it is
   * one. Not while an fsync of theirs runs: its records must be handed over before the file goes.
   */
  toReplay(): JournalSegment[] {
    if (this.active.replay) this.rotate();
    const syncing = new Set<JournalSegment | undefined>([
      ...this.syncingNow,
      ...(this.group?.entries.map((e) => e.segment) ?? []),
    ]);
    return [...this.sealed].filter((s) => s.replay && !syncing.has(s));
  }

  /** The records of a segment to replay (bounded by the segment size). */
  read(segment: JournalSegment): UsageRecord[] {
    return decodeLines(readFileSync(segment.file, 'utf8')).records;
  }

  /** A replayed segment: all its records are in the store. */
  replayed(segment: JournalSegment): void {
    this.sealed.delete(segment);
    segment.remove();
  }

  /**
   * Takes over the segments of processes that are gone, renamed as sealed segments of this one (a
   * rename is atomic: two processes cannot both take one). Returns how many were taken.
   */
  adoptOrphans(): number {
    let adopted = 0;
    for (const name of orphanSegments(this.options.dir, this.owner)) {
      const file = path.join(this.options.dir, segmentFileName(this.owner, this.next++));
      try {
        renameSync(path.join(this.options.dir, name), file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // another process took it
        throw err;
      }
      const segment = new JournalSegment(file);
      segment.sealed = true;
      segment.replay = true;
      this.sealed.add(segment);
      adopted++;
    }
    return adopted;
  }

  /**
   * Keeps records the store refuses for good, one JSON line each, in a file that is never replayed
   * (`usage-refused-<tag>.jsonl`, for an operator to look at); returns its path.
   */
  setAside(records: readonly UsageRecord[]): string {
    const file = path.join(this.options.dir, `usage-refused-${this.owner.tag}.jsonl`);
    appendFileSync(file, records.map(encodeRecord).join(''), { mode: 0o600 });
    return file;
  }

  /** Marks this process's segments as alive (see journal-files.ts). */
  heartbeat(now = new Date()): void {
    this.active.touch(now);
    for (const s of this.sealed) s.touch(now);
  }

  /** Resolves once the records appended so far are durable (or failed). */
  async settled(): Promise<void> {
    await this.gathered?.promise.catch(() => {});
    await this.syncing;
    await this.group?.promise.catch(() => {});
  }

  /**
   * Closes the files: those whose records are all in the store are removed, the others stay for
   * the next start (of any process on this data directory) to replay.
   */
  close(): void {
    this.writeGathered();
    for (const s of [this.active, ...this.sealed]) {
      if (!s.replay && s.stored >= s.written) s.remove();
      else s.close();
    }
  }

  /** The end of a turn: its gathered records in one write. */
  private readonly endTurn = (): void => {
    this.turnWritten = false;
    this.writeGathered();
  };

  private writeGathered(): void {
    const gathered = this.gathered;
    if (gathered === undefined) return;
    this.gathered = undefined;
    const err = this.write(gathered.entries, gathered.lines.join(''));
    if (err !== undefined) gathered.reject(err);
    else if (this.options.sync === 'write') gathered.resolve();
    else this.joinSync(gathered.entries).then(gathered.resolve, gathered.reject);
  }

  /**
   * Writes the entries' lines to the active segment in one write. With `write` they are handed
   * over at once; with `fsync` once their fsync is done. A failed write hands them over with its
   * error (held in memory only) and returns it.
   */
  private write(entries: JournalEntry[], text: string): unknown {
    const segment = this.active;
    try {
      segment.append(text);
    } catch (err) {
      this.handOver(entries, err);
      return err;
    }
    segment.written += entries.length;
    for (const entry of entries) entry.segment = segment;
    if (segment.size >= this.segmentBytes) this.rotate();
    if (this.options.sync === 'write') this.handOver(entries);
    return undefined;
  }

  /** Written entries waiting for the next fsync (`fsync` only). */
  private joinSync(entries: JournalEntry[]): Promise<void> {
    const group = this.group ?? this.openGroup();
    group.entries.push(...entries);
    this.syncNext();
    return group.promise;
  }

  /** One fsync for every record written since the last one began (group commit). */
  private syncNext(): void {
    const group = this.group;
    if (this.syncing !== undefined || group === undefined) return;
    this.group = undefined;
    const segments = new Set<JournalSegment>();
    for (const e of group.entries) if (e.segment) segments.add(e.segment);
    this.syncingNow = [...segments];
    this.syncing = Promise.all(this.syncingNow.map((s) => s.sync())).then(
      () => this.synced(group, undefined),
      // Written but perhaps not on the disk: the records stay counted in their segment.
      (err: unknown) => this.synced(group, err ?? new Error('fsync failed')),
    );
  }

  private synced(group: Group, err: unknown): void {
    this.syncing = undefined;
    this.syncingNow = [];
    if (err === undefined) this.durable(group);
    else this.failed(group, err);
    this.syncNext();
  }

  private durable(group: Group): void {
    this.handOver(group.entries);
    group.resolve();
  }

  private failed(group: Group, err: unknown): void {
    this.handOver(group.entries, err);
    group.reject(err);
  }

  private release(segment: JournalSegment): void {
    if (segment.replay || segment.stored < segment.written) return;
    if (segment === this.active) {
      if (segment.size > 0) segment.truncate();
    } else if (this.sealed.delete(segment)) segment.remove();
  }

  private rotate(): void {
    const old = this.active;
    old.sealed = true;
    this.sealed.add(old);
    this.active = this.newSegment();
    this.release(old);
  }

  private newSegment(): JournalSegment {
    return new JournalSegment(path.join(this.options.dir, segmentFileName(this.owner, this.next++)));
  }

  private openGroup(): Group {
    this.group = newGroup();
    return this.group;
  }

  private openGathered(): Group & { lines: string[] } {
    this.gathered = { ...newGroup(), lines: [] };
    return this.gathered;
  }
}

function newGroup(): Group {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A failed write or fsync is reported to each reply that waits on it; none may be an unhandled rejection.
  promise.catch(() => {});
  return { entries: [], promise, resolve, reject };
}

function rejected(err: unknown): Promise<void> {
  const promise = Promise.reject(err);
  promise.catch(() => {});
  return promise;
}
