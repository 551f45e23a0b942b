import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ApiError } from '../../errors/api-error.js';
import { overloaded } from '../../errors/errors.js';
import type { Store, UsageRecord, UsageWindow } from '../../stores/types.js';
import { HEARTBEAT_MS } from './journal-files.js';
import type { JournalSegment } from './journal-segment.js';
import { PendingUsage } from './pending-usage.js';
import { DURABLE, type JournalEntry, UsageJournal, type UsageJournalOptions } from './usage-journal.js';

/** The error a reply gets instead of its last byte when its usage record could not be made durable. */
export function usageNotRecorded(err: unknown): ApiError {
  const reason = err instanceof Error ? err.message : String(err);
  return overloaded(`The usage of this request could not be recorded (usage journal: ${reason}); retry later`, {
    cause: err,
    retryAfter: 5,
  });
}

export interface UsageRecorderOptions {
  /** Where records are made durable before their replies end; none: held in memory only (tests, tools). */
  journal?: UsageJournalOptions | undefined;
  /** How long a record may wait to be written with others. */
  delayMs?: number;
  maxBatch?: number;
  /** Records held in memory for the store; past it they stay in the journal only (`usage.max_queued`). */
  maxQueued?: number;
  /** First and longest wait between attempts to write to a failing store. */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** A failed attempt; the same records are tried again after `retryInMs`. */
  onError(err: unknown, records: number, retryInMs: number): void;
  /** A failed journal write (or fsync): the records are held in memory only, their replies refused. */
  onJournalError?(err: unknown, records: number): void;
  /** Records the store refuses for good (see `isolate`), set aside in `file`. */
  onRefused?(err: unknown, records: number, file: string | undefined): void;
  /** Every record taken, as its call ends (what /metrics counts of spend). */
  onRecord?(record: UsageRecord): void;
}

/** What `/metrics` shows of the recorder. */
export interface UsageStats {
  /** Records in memory waiting to be written to the store. */
  queued: number;
  /** Records past the memory cap, kept only in the journal until the store takes them. */
  journalOnly: number;
  /** Attempts to write records to the store that failed (each is retried). */
  writeFailures: number;
  /** Records whose journal write failed: held in memory only, and their replies refused (1305). */
  journalFailures: number;
  /** Records written to the store from a journal file (spilled, or left by a process that died). */
  replayed: number;
  /** Records the store refused for good while it took others: kept in a file beside the journal. */
  setAside: number;
}

/** After this many failed attempts in a row a batch is written one record at a time (`isolate`). */
const ISOLATE_AFTER = 5;

/**
 * Usage records, never lost: each is appended to the journal, and the reply that it accounts for
 * waits for that (`record` returns the promise) before its last byte. Then the records go to the
 * store in batches (one transaction per batch), a failing store is retried with a capped backoff,
 * and what memory cannot hold stays in the journal until the store is back. At start-up, journals
 * of processes that died are replayed (journal ids make a replay idempotent). Records not in the
 * store yet still count towards usage windows (`pending`), so limits hold while they wait.
 */
export class UsageRecorder {
  private queue: JournalEntry[] = [];
  private readonly waiting = new PendingUsage();
  private readonly stats = { writeFailures: 0, journalFailures: 0, replayed: 0, journalOnly: 0, setAside: 0 };
  private timer: NodeJS.Timeout | undefined = undefined;
  private running: Promise<void> | undefined = undefined;
  /** Ends the backoff wait early (flush, close). */
  private wake: (() => void) | undefined = undefined;
  /** Flushes waiting for the queue to be written, or for a failed attempt. */
  private flushes: (() => void)[] = [];
  private failStreak = 0;
  /** The wait announced with the last failure. */
  private waitMs = 0;
  private closing = false;
  private heartbeat: NodeJS.Timeout | undefined = undefined;
  private readonly delayMs: number;
  private readonly maxBatch: number;
  private readonly maxQueued: number;
  private readonly retryMinMs: number;
  private readonly retryMaxMs: number;
  private readonly journal: UsageJournal | undefined;

  constructor(
    private readonly store: Store,
    private readonly options: UsageRecorderOptions,
  ) {
    this.delayMs = options.delayMs ?? 50;
    this.maxBatch = options.maxBatch ?? 500;
    this.maxQueued = options.maxQueued ?? 100_000;
    this.retryMinMs = options.retryMinMs ?? 100;
    this.retryMaxMs = options.retryMaxMs ?? 30_000;
    this.journal = options.journal && new UsageJournal(options.journal, this.take);
  }

  /**
   * Replays the journals that processes which are gone left behind (one attempt; on a failure they
   * stay for the background writer), then keeps this process's journal alive and looks for orphans.
   */
  async start(): Promise<void> {
    const journal = this.journal;
    if (!journal) return;
    if (journal.adoptOrphans() > 0) await this.replayAll(false);
    this.schedule();
    let ticks = 0;
    this.heartbeat = setInterval(() => {
      journal.heartbeat();
      // Another process sharing the data directory may have died since.
      if (++ticks % 6 === 0 && journal.adoptOrphans() > 0) this.schedule();
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * Records a reply's usage. Resolves when the record is durable in the journal (the reply may then
   * end); at once without a journal (held in memory only). Rejects with a 1305 when the journal
   * cannot be written: the record is still kept (in memory), but the reply must not claim it is safe.
   */
  record(record: UsageRecord): Promise<void> {
    this.waiting.add(record.keyId, record.createdAt);
    this.options.onRecord?.(record);
    if (!this.journal) {
      this.take([{ record, segment: undefined }]);
      return DURABLE;
    }
    return this.journal.append(record);
  }

  /** The journal's hand-over: a turn's records, durable (or failed, then in memory only). */
  readonly take = (entries: JournalEntry[], err?: unknown): void => {
    if (err !== undefined) {
      this.stats.journalFailures += entries.length;
      this.options.onJournalError?.(err, entries.length);
    }
    for (const entry of entries) {
      const { segment } = entry;
      if (segment !== undefined && this.queue.length >= this.maxQueued) {
        this.journal?.spill({ record: entry.record, segment });
        this.stats.journalOnly++;
      } else this.queue.push(entry);
    }
    this.schedule();
  };

  /** Records waiting to be written (for metrics). */
  get queued(): number {
    return this.queue.length;
  }

  usageStats(): UsageStats {
    return { queued: this.queue.length, ...this.stats };
  }

  /** The key's records since a time that are not in the store yet. */
  pending(keyId: string, since: number): UsageWindow {
    return this.waiting.window(keyId, since);
  }

  /** The records since a time, not in the store yet, of every key that `belongs` picks. */
  pendingWhere(belongs: (keyId: string) => boolean, since: number): UsageWindow {
    return this.waiting.windowWhere(belongs, since);
  }

  /**
   * Writes what is queued now. Resolves once it is in the store, or after an attempt that failed
   * (the records stay queued and are retried): a reader of the store never waits out an outage.
   */
  async flush(): Promise<void> {
    await this.journal?.settled();
    if (this.queue.length === 0 && this.running === undefined) return;
    const done = new Promise<void>((resolve) => this.flushes.push(resolve));
    this.kick();
    return done;
  }

  /**
   * One last attempt to write what is queued; what the store does not take stays in the journal
   * for the next start (records of a failed journal write are then lost, and said so).
   */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.flush();
    this.closing = true;
    this.wake?.();
    clearTimeout(this.timer);
    await this.running;
    const unjournaled = this.queue.filter((e) => e.segment === undefined).length;
    if (unjournaled > 0 && this.journal) {
      this.options.onError(
        new Error('usage records lost at shutdown (the journal could not be written)'),
        unjournaled,
        0,
      );
    }
    this.journal?.close();
  }

  private schedule(): void {
    if (this.running !== undefined || this.closing) return;
    if (this.queue.length >= this.maxBatch) this.kick();
    else if (this.timer === undefined && (this.queue.length > 0 || this.hasReplay())) {
      this.timer = setTimeout(() => this.kick(), this.delayMs);
      this.timer.unref();
    }
  }

  private kick(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running !== undefined) {
      this.wake?.();
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
      this.settleFlushes();
      this.schedule();
    });
  }

  /** Writes the queue in batches, then the journal segments that must be read back. */
  private async run(): Promise<void> {
    while (this.queue.length > 0) {
      // Made afresh at each attempt: records that came during a wait join a batch that failed,
      // so that one the store refuses for good is never alone (see `isolate`).
      const batch = this.queue.slice(0, this.maxBatch);
      if (!(await this.attempt(batch.map((e) => e.record)))) {
        if (!(await this.backOff())) return;
        continue;
      }
      this.queue.splice(0, batch.length);
      for (const e of batch) this.waiting.remove(e.record.keyId, e.record.createdAt);
      this.journal?.stored(batch);
      // A large backlog is written a batch per turn, not in one block of the event loop.
      if (this.queue.length > 0) await nextTurn();
    }
    this.settleFlushes();
    await this.replayAll(true);
  }

  private hasReplay(): boolean {
    return this.journal !== undefined && this.journal.toReplay().length > 0;
  }

  private async replayAll(retry: boolean): Promise<void> {
    for (const segment of this.journal?.toReplay() ?? []) {
      if (!(await this.replay(segment, retry))) return;
      // New records came meanwhile: memory first, the next segment after.
      if (this.queue.length > 0) return;
    }
  }

  private async replay(segment: JournalSegment, retry: boolean): Promise<boolean> {
    const journal = this.journal!;
    const records = journal.read(segment);
    for (let i = 0; i < records.length; i += this.maxBatch) {
      while (!(await this.attempt(records.slice(i, i + this.maxBatch)))) {
        if (!retry || !(await this.backOff())) return false;
      }
      await nextTurn();
    }
    this.stats.replayed += records.length;
    this.stats.journalOnly -= segment.spilled;
    for (const [keyId, times] of segment.spilledAt) for (const t of times) this.waiting.remove(keyId, t);
    journal.replayed(segment);
    return true;
  }

  /**
   * One attempt to write a batch: true once it is in the store (or, after repeated failures, its
   * records have been written one by one and those the store refuses for good set aside).
   */
  private async attempt(records: UsageRecord[]): Promise<boolean> {
    try {
      await this.store.recordUsage(records);
      this.failStreak = 0;
      return true;
    } catch (err) {
      this.stats.writeFailures++;
      this.failStreak++;
      this.options.onError(err, records.length, this.nextWait());
      this.settleFlushes();
      return this.failStreak % ISOLATE_AFTER === 0 && (await this.isolate(records));
    }
  }

  /**
   * A batch that keeps failing may hold a record the store refuses whatever happens (a value out
   * of a column's range): all or none would then hold up every record behind it for ever. Written
   * one by one: when some go in and others do not, the store is up and those are set aside, in a
   * file next to the journal (never dropped, never retried), and logged. None going in: the store
   * is down, the batch waits.
   */
  private async isolate(records: UsageRecord[]): Promise<boolean> {
    if (records.length < 2) return false;
    const refused: { record: UsageRecord; err: unknown }[] = [];
    for (const record of records) {
      try {
        await this.store.recordUsage([record]);
      } catch (err) {
        refused.push({ record, err });
      }
    }
    if (refused.length === records.length) return false;
    this.failStreak = 0;
    if (refused.length > 0) {
      this.stats.setAside += refused.length;
      const file = this.journal?.setAside(refused.map((r) => r.record));
      this.options.onRefused?.(refused[0]!.err, refused.length, file);
    }
    return true;
  }

  /** The wait before the next attempt: doubling from `retryMinMs`, capped, ±20 %. */
  private nextWait(): number {
    const wait = Math.min(this.retryMaxMs, this.retryMinMs * 2 ** Math.min(Math.max(0, this.failStreak - 1), 20));
    // Processes that lost the same database do not all come back in step.
    this.waitMs = Math.round(wait * (0.8 + Math.random() * 0.4));
    return this.waitMs;
  }

  /** Waits before the next attempt; false when closing. */
  private async backOff(): Promise<boolean> {
    if (this.closing) return false;
    await this.sleep(this.waitMs);
    return !this.closing;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  private settleFlushes(): void {
    const waiting = this.flushes;
    this.flushes = [];
    for (const resolve of waiting) resolve();
  }
}
