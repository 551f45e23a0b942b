import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, freshSchema } from '../helpers/postgres.js';
import { freshPrefix, REDIS_URL } from '../helpers/redis.js';
import { ensureBuilt, type ServerProcess, startServer } from '../helpers/server-process.js';
import { type SlowUpstream, startSlowUpstream, upstreamModels } from '../helpers/slow-chat-upstream.js';

/**
 * Limits per account across real processes: three `gen-platform serve` processes (from dist/) on
 * one PostgreSQL schema and one Redis, four keys of one account whose concurrency is N, and 4×N
 * slow streams fired at once, spread over the processes and the keys. At most N reach the
 * upstream at any moment; every other request is answered 1302 naming the account's limit.
 *
 * Runs against DATABASE_URL and REDIS_URL (the local defaults when unset); skipped when they are
 * unset and nothing answers there.
 */
const ADMIN = 'account-limits-admin-key-0123456789';
const N = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const configured = process.env['DATABASE_URL'] !== undefined && process.env['REDIS_URL'] !== undefined;
const available = configured || ((await reachable(DATABASE_URL)) && (await reachable(REDIS_URL)));

describe.skipIf(!available)('per-account concurrency across three processes on PostgreSQL + Redis', () => {
  let upstream: SlowUpstream;
  let schema: { schema: string; drop(): Promise<void> };
  let dataDir: string;
  const servers: ServerProcess[] = [];
  const keys: string[] = [];
  let accountId: string;

  const call = async (base: string, method: string, url: string, body: unknown, key = ADMIN) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    ensureBuilt();
    upstream = await startSlowUpstream({ chunks: 20, delayMs: 100 });
    schema = await freshSchema();
    dataDir = mkdtempSync(path.join(tmpdir(), 'gen-platform-account-limits-'));
    const configFile = path.join(dataDir, 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        ...upstreamModels(upstream.baseUrl),
        database: { url: DATABASE_URL, schema: schema.schema },
        redis: { url: REDIS_URL, prefix: freshPrefix() },
        security: { admin_key: ADMIN },
        accounts: { concurrent: 8, max_keys: 4 },
        // Each key alone could run far more than the account allows.
        limits: { concurrent: 4 * N },
      }),
    );
    // One at a time: the first runs the migrations; start-up is slow on a loaded machine.
    for (let i = 0; i < 3; i++) servers.push(await startServer(configFile, dataDir, [], 150_000));

    const made = await call(servers[0]!.base, 'POST', '/admin/accounts', { name: 'Team', email: 'team@example.test' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    accountId = made.body['id'] as string;
    const policy = await call(servers[1]!.base, 'PATCH', `/admin/accounts/${accountId}/policy`, { concurrent: N });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    for (let i = 0; i < 4; i++) {
      const key = await call(servers[i % 3]!.base, 'POST', '/admin/keys', { name: `team-${i}`, account: accountId });
      expect(key.status, JSON.stringify(key.body)).toBe(200);
      keys.push(key.body['key'] as string);
    }
    // The policy set in one process is read by the others within 2 s (their cache of it).
    await sleep(2_100);
  }, 600_000);

  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await upstream?.close();
    await schema?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** 4×N streams at once: request i to process i mod 3 with key i mod 4; the most open upstream at once. */
  async function wave(): Promise<{ codes: number[]; messages: string[]; mostOpen: number }> {
    let mostOpen = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        mostOpen = Math.max(mostOpen, upstream.open);
        await sleep(10);
      }
    })();
    const replies = await Promise.all(
      Array.from({ length: 4 * N }, async (_, i) => {
        const res = await fetch(`${servers[i % 3]!.base}/paas/v4/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${keys[i % 4]}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gen-4.6', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
        });
        if (res.status === 200) {
          await res.text();
          return { code: 200, message: '' };
        }
        const body = (await res.json()) as { code: number; message: string };
        return { code: body.code, message: body.message };
      }),
    );
    watching = false;
    await watch;
    return { codes: replies.map((r) => r.code), messages: replies.map((r) => r.message), mostOpen };
  }

  it(`holds 4 keys of one account, over 3 processes, to the account's ${N} at a time`, async () => {
    const before = upstream.requests;
    const { codes, messages, mostOpen } = await wave();
    expect(codes.filter((c) => c === 200)).toHaveLength(N);
    expect(codes.filter((c) => c === 1302)).toHaveLength(3 * N);
    expect(mostOpen).toBeLessThanOrEqual(N);
    expect(upstream.requests - before).toBe(N);
    for (const [i, code] of codes.entries())
      if (code === 1302) expect(messages[i]).toBe(`Too many concurrent requests: this account allows ${N} at a time`);
  });

  it('frees the slots in every process when the streams end: the next wave gets N again', async () => {
    const { codes, mostOpen } = await wave();
    expect(codes.filter((c) => c === 200)).toHaveLength(N);
    expect(mostOpen).toBeLessThanOrEqual(N);
  });
});
