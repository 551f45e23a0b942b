import { overloaded } from '../errors/errors.js';
import type { CancelSignal } from './cancel-signal.js';

export interface FairQueueOptions {
  /** Entries waiting in all lanes together. */
  limit: number;
  /** The message of the 1305 that refuses (or pushes out) an entry when the queue is full. */
  fullMessage: string;
  /** Its Retry-After, in seconds. */
  retryAfter: number;
}

interface Entry<T> {
  readonly lane: Lane<T>;
  readonly signal: CancelSignal | undefined;
  resolve(value: T): void;
  reject(reason: unknown): void;
  onAbort(): void;
}

interface Lane<T> {
  readonly key: string;
  readonly entries: Entry<T>[];
  /** When the lane last became non-empty: orders lanes that have had no turn yet. */
  readonly since: number;
}

/** The stamp of a key that has had no turn lately: ahead of every key that has. */
const NEVER = -1;

/**
 * Waiting room for a shared resource (engine slots, workers), fair across keys: one FIFO lane per
 * key (an opaque tenant string), and each freed resource goes to the lane whose group (the part
 * of the key before a `/`: an account) and then key was served least recently, so that keys with work waiting take turns (round-robin) and a key that had no
 * turn lately goes first. One key's burst therefore delays another key's request by at most one
 * turn per key waiting, instead of by the whole burst.
 *
 * Bounded: a full queue refuses with 1305 and Retry-After, unless the newcomer's key holds fewer
 * entries than the longest lane by two or more: then that lane's newest entry is refused instead,
 * so one key filling the queue cannot lock the others out. An entry whose signal aborts leaves
 * its lane at once, rejected with the signal's reason.
 *
 * The owner of the resource hands it over with `serve` when it frees one and nobody else may take
 * it; a resource taken at once (free, nobody waiting) is reported with `served(key)`, so that the
 * key's later waiting entries stand behind keys with no turn yet.
 */
export class FairQueue<T = void> {
  private readonly lanes = new Map<string, Lane<T>>();
  /** Key → the turn count when it was last served; only while something waits (see forget()). */
  private readonly stamps = new Map<string, number>();
  /** The same for groups of keys (`group/key`: an account's keys), ordered before the keys within. */
  private readonly groupStamps = new Map<string, number>();
  private turns = 0;
  private activations = 0;
  private waiting = 0;

  constructor(private readonly options: FairQueueOptions) {}

  /** Entries waiting, in all lanes. */
  get length(): number {
    return this.waiting;
  }

  /** Keys with entries waiting. */
  get keys(): number {
    return this.lanes.size;
  }

  /**
   * Waits in `key`'s lane until `serve` hands this entry a value. Rejects with 1305 when the queue
   * is full, with the signal's reason when it aborts first.
   */
  wait(key: string, signal?: CancelSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.waiting >= this.options.limit && !this.pushOutFor(key)) return Promise.reject(this.full());
    return new Promise<T>((resolve, reject) => {
      let lane = this.lanes.get(key);
      if (lane === undefined) {
        lane = { key, entries: [], since: this.activations++ };
        this.lanes.set(key, lane);
      }
      const entry: Entry<T> = {
        lane,
        signal,
        resolve,
        reject,
        onAbort: () => {
          if (this.remove(entry)) reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      lane.entries.push(entry);
      this.waiting++;
    });
  }

  /** Hands `value` to the next entry in fair order; false when nothing waits. */
  serve(value: T): boolean {
    const lane = this.nextLane();
    if (lane === undefined) return false;
    const entry = lane.entries[0]!;
    this.remove(entry);
    this.served(lane.key);
    entry.resolve(value);
    return true;
  }

  /** Records a turn `key` took without waiting. */
  served(key: string): void {
    this.stamps.set(key, ++this.turns);
    this.groupStamps.set(groupOf(key), this.turns);
    if (this.groupStamps.size > 2 * this.options.limit + 16) this.groupStamps.clear();
    // Stamps only order lanes against each other: with a few per key waiting at most, a map much
    // larger than the queue holds keys whose stamp no longer matters.
    if (this.stamps.size > 2 * this.options.limit + 16) this.forgetOlderThan(this.oldestWaitingStamp());
  }

  /** Rejects every waiting entry with `reason` (the resource is closing). */
  clear(reason: unknown): void {
    for (const lane of [...this.lanes.values()]) {
      for (const entry of [...lane.entries]) {
        this.remove(entry);
        entry.reject(reason);
      }
    }
  }

  private nextLane(): Lane<T> | undefined {
    let best: Lane<T> | undefined;
    let bestGroup = 0;
    let bestStamp = 0;
    for (const lane of this.lanes.values()) {
      // The group served least recently first, then its key served least recently, then the oldest lane.
      const group = this.groupStamps.get(groupOf(lane.key)) ?? NEVER;
      const stamp = this.stamps.get(lane.key) ?? NEVER;
      if (
        best === undefined ||
        group < bestGroup ||
        (group === bestGroup && (stamp < bestStamp || (stamp === bestStamp && lane.since < best.since)))
      ) {
        best = lane;
        bestGroup = group;
        bestStamp = stamp;
      }
    }
    return best;
  }

  /** Makes room for `key` by refusing the longest lane's newest entry, if that lane is longer by 2+. */
  private pushOutFor(key: string): boolean {
    const own = this.lanes.get(key)?.entries.length ?? 0;
    let longest: Lane<T> | undefined;
    for (const lane of this.lanes.values()) {
      if (longest === undefined || lane.entries.length > longest.entries.length) longest = lane;
    }
    if (longest === undefined || longest.entries.length < own + 2) return false;
    const victim = longest.entries[longest.entries.length - 1]!;
    this.remove(victim);
    victim.reject(this.full());
    return true;
  }

  /** Takes an entry out of its lane; false when it was no longer there. */
  private remove(entry: Entry<T>): boolean {
    const { lane } = entry;
    const at = lane.entries.indexOf(entry);
    if (at === -1) return false;
    lane.entries.splice(at, 1);
    entry.signal?.removeEventListener('abort', entry.onAbort);
    this.waiting--;
    if (lane.entries.length === 0) this.lanes.delete(lane.key);
    // With nothing waiting, past turns order nothing: forget them (memory stays bounded).
    if (this.waiting === 0) {
      this.stamps.clear();
      this.groupStamps.clear();
    }
    return true;
  }

  private oldestWaitingStamp(): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const lane of this.lanes.values()) oldest = Math.min(oldest, this.stamps.get(lane.key) ?? NEVER);
    return oldest;
  }

  /** Stamps older than every waiting lane's rank like no stamp at all: drop them. */
  private forgetOlderThan(stamp: number): void {
    for (const [key, at] of this.stamps) if (at < stamp) this.stamps.delete(key);
  }

  private full() {
    return overloaded(this.options.fullMessage, { retryAfter: this.options.retryAfter });
  }
}

/** A key's group: the part before its first `/` (an account's keys are `account/key`), else the key itself. */
export const groupOf = (key: string): string => {
  const at = key.indexOf('/');
  return at === -1 ? key : key.slice(0, at);
};
