import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { type SlowUpstream, startSlowUpstream, upstreamModels } from '../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A full disk under the SQLite store: a write that fails for it is answered 503 / 1305 naming the
 * cause, /health reports the database full and readiness fails, reads keep working, and all is
 * well again once space is back. Simulated with max_page_count; for real on a tiny tmpfs where
 * this process may mount one.
 */
const chatless = (t: TestApp, id: string) =>
  t.post('/paas/v4/chat/completions', {
    model: 'gen-4.6',
    request_id: id,
    max_tokens: 4,
    messages: [{ role: 'user', content: 'hi' }],
  });

let upstream: SlowUpstream;
beforeAll(async () => {
  upstream = await startSlowUpstream({ chunks: 2, delayMs: 1 });
});
afterAll(async () => {
  await upstream?.close();
});

/** Fills the free room of the request-id table's pages, in ever smaller rows, until nothing fits. */
async function fillUp(t: TestApp): Promise<void> {
  const keyId = t.key.split('.')[0]!;
  let i = 0;
  for (const size of [2000, 200, 20, 1]) {
    try {
      // Bounded: a store that never fills (a misconfigured test) must not fill the real disk.
      for (let n = 0; n < 5000; n++) {
        await t.services.store.claimRequestId(keyId, `w${String(i++).padStart(6, '0')}${'x'.repeat(size)}`, 0);
      }
    } catch {
      // this size no longer fits
    }
  }
}

/** Polls readiness (its probe is reused for a second) until it answers 200. */
async function readyWithin(t: TestApp, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if ((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode === 200) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * `journalFull`: the usage journal shares the full filesystem, so a billed reply cannot be made
 * durable and is refused (503 naming the journal) instead of going out unbilled.
 */
async function expectFull(t: TestApp, id: string, journalFull: boolean): Promise<void> {
  // A request id is claimed (written) before anything else of the call runs.
  const res = await chatless(t, id);
  expect(res.status, JSON.stringify(res.body)).toBe(503);
  expect(res.body['code']).toBe(1305);
  expect(res.body['message']).toBe('The database cannot write (disk full); retry once space is freed');
  expect(res.headers['retry-after']).toBe('30');
  const health = await t.app.inject({ method: 'GET', url: '/health' });
  expect(health.json()).toMatchObject({
    status: 'degraded',
    dependencies: { database: { state: 'full', cause: 'disk full' } },
  });
  expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(503);
  // A call that writes nothing in the database before its reply is served, if its usage can be kept.
  const read = await t.post('/paas/v4/chat/completions', {
    model: 'gen-4.6',
    max_tokens: 4,
    messages: [{ role: 'user', content: 'hi' }],
  });
  if (!journalFull) expect(read.status).toBe(200);
  else {
    expect(read.status).toBe(503);
    expect(read.body['code']).toBe(1305);
    expect(read.body['message']).toMatch(/^The usage of this request could not be recorded \(usage journal: ENOSPC/);
  }
}

describe('SQLite at its size limit (max_page_count)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(upstreamModels(upstream.baseUrl));
  });
  afterAll(() => t?.close());

  it('answers 503 / 1305 for a write, reports it, and recovers when space is back', async () => {
    const db = (t.services.store as SqliteStore).db;
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    await fillUp(t);
    await expectFull(t, 'while-full', false);
    db.pragma(`max_page_count = ${pages * 100}`);
    expect(await readyWithin(t, 3000)).toBe(true);
    const after = await chatless(t, 'after-the-fill');
    expect(after.status, JSON.stringify(after.body)).toBe(200);
  });
});

function canMountTmpfs(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const dir = mkdtempSync(path.join(tmpdir(), 'gp-mount-probe-'));
  const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir]).status === 0;
  if (ok) spawnSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
  return ok;
}

describe.skipIf(!canMountTmpfs())('SQLite on a full filesystem (a 6 MB tmpfs)', () => {
  let dir: string;
  let t: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gp-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', dir]);
    t = await createTestApp(upstreamModels(upstream.baseUrl), { GEN_PLATFORM_DATA: dir });
    expect(t.config.data_dir).toBe(dir);
  });
  afterAll(async () => {
    await t?.close();
    spawnSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 / 1305 once the filesystem is full, and recovers when space is freed', async () => {
    const filler = path.join(dir, 'filler');
    const free = statfsSync(dir).bavail * statfsSync(dir).bsize;
    writeFileSync(filler, Buffer.alloc(free));
    await fillUp(t);
    await expectFull(t, 'while-full', true);
    rmSync(filler);
    expect(await readyWithin(t, 3000)).toBe(true);
    const after = await chatless(t, 'after-the-fill');
    expect(after.status, JSON.stringify(after.body)).toBe(200);
  });
});
