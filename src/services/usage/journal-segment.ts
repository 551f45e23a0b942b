import { closeSync, fdatasync, ftruncateSync, futimesSync, openSync, unlinkSync, writeSync } from 'node:fs';

/**
 * One journal file of this process, opened for appending (0600: usage names keys), with the counts
 * that decide when it may go: `written` records are in it, `stored` of them are in the store, and
 * `spilled` of them are nowhere else (not held in memory: they must be read back from the file).
 */
export class JournalSegment {
  written = 0;
  stored = 0;
  spilled = 0;
  /** No more records go in; it is removed once its records are in the store. */
  sealed = false;
  /** Its records must be read back from the file (spilled, or left by a process that died). */
  replay = false;
  /** Per key, when each spilled record was made: they count towards usage windows until replayed. */
  readonly spilledAt = new Map<string, number[]>();
  private bytes = 0;
  private fd: number | undefined;

  constructor(
    readonly file: string,
    fd?: number,
  ) {
    this.fd = fd ?? openSync(file, 'a', 0o600);
  }

  get size(): number {
    return this.bytes;
  }

  /** Appends whole lines in one write; a failed write is cut off again so that no torn line stays. */
  append(text: string): void {
    const buf = Buffer.from(text);
    try {
      let done = 0;
      while (done < buf.length) done += writeSync(this.openFd(), buf, done);
    } catch (err) {
      try {
        ftruncateSync(this.openFd(), this.bytes);
      } catch {
        // The write's own error is the one to report; a torn line is skipped when read anyway.
      }
      throw err;
    }
    this.bytes += buf.length;
  }

  /**
   * Flushes what was written to the disk (fdatasync, on a libuv thread). A segment already removed
   * has nothing to flush: it was replayed, so its records are in the store.
   */
  sync(): Promise<void> {
    const fd = this.fd;
    if (fd === undefined) return Promise.resolve();
    return new Promise((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));
  }

  /** Everything written is in the store: empty the file in place rather than make a new one. */
  truncate(): void {
    ftruncateSync(this.openFd(), 0);
    this.bytes = 0;
    this.written = 0;
    this.stored = 0;
  }

  /** Its owner is alive: other processes leave a segment alone while its time keeps moving. */
  touch(now: Date): void {
    if (this.fd !== undefined) futimesSync(this.fd, now, now);
  }

  remove(): void {
    this.close();
    try {
      unlinkSync(this.file);
    } catch (err) {
      // Another process that took it for an orphan may have removed it first: nothing is lost.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private openFd(): number {
    if (this.fd === undefined) throw new Error(`journal segment ${this.file} is closed`);
    return this.fd;
  }
}
