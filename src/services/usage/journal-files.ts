import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { processAlive } from '../../util/process-alive.js';

/**
 * Names of journal segments, and which ones no live process owns. Several processes may share a
 * data directory (on PostgreSQL): each writes segments of its own, named
 * `usage-<host>-<pid>-<tag>-<n>.journal`, where `tag` is random per process start (a restarted
 * container is pid 1 again). A segment whose process is gone is an orphan: its records are
 * replayed into the store by whichever process finds it (replaying is idempotent: journal ids).
 */
export interface JournalOwner {
  host: string;
  pid: number;
  tag: string;
}

export interface SegmentName extends JournalOwner {
  n: number;
}

/** This process as a journal owner. */
export function currentOwner(): JournalOwner {
  return {
    host: hostname().replace(/[^A-Za-z0-9_.]/g, '_') || 'host',
    pid: process.pid,
    tag: randomBytes(6).toString('hex'),
  };
}

export function segmentFileName(owner: JournalOwner, n: number): string {
  return `usage-${owner.host}-${owner.pid}-${owner.tag}-${n}.journal`;
}

const NAME = /^usage-([A-Za-z0-9_.]+)-(\d+)-([0-9a-f]{12})-(\d+)\.journal$/;

export function parseSegmentName(name: string): SegmentName | undefined {
  const m = NAME.exec(name);
  if (!m) return undefined;
  return { host: m[1]!, pid: Number(m[2]), tag: m[3]!, n: Number(m[4]) };
}

/**
 * How long a segment of another host (or of a pid this host cannot check) may go untouched before
 * it counts as an orphan. Live owners touch their segments every `HEARTBEAT_MS`.
 */
export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 6 * HEARTBEAT_MS;

/** Segments in `dir` that belong to no live process (never `owner`'s own), oldest first. */
export function orphanSegments(dir: string, owner: JournalOwner, now = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const orphans: { name: string; seg: SegmentName }[] = [];
  for (const name of names) {
    const seg = parseSegmentName(name);
    if (!seg || seg.tag === owner.tag) continue;
    if (isOrphan(path.join(dir, name), seg, owner, now)) orphans.push({ name, seg });
  }
  return orphans.sort((a, b) => a.seg.n - b.seg.n).map((o) => o.name);
}

function isOrphan(file: string, seg: SegmentName, owner: JournalOwner, now: number): boolean {
  // On this host a pid answers at once: ours again (an earlier life of this process), or gone.
  if (seg.host === owner.host && (seg.pid === owner.pid || !processAlive(seg.pid))) return true;
  try {
    return now - statSync(file).mtimeMs > STALE_MS;
  } catch {
    return false; // gone meanwhile: another process took it
  }
}
