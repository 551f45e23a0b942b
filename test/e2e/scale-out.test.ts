import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OwnDatabase, OwnPostgres, ownPostgresUnavailable } from '../helpers/own-postgres.js';
import { OwnRedis } from '../helpers/own-redis.js';
import { freshSchema } from '../helpers/postgres.js';
import { ensureBuilt, type ServerProcess, startRoundRobin, startServer } from '../helpers/server-process.js';
import { type SlowUpstream, startSlowUpstream, upstreamModels } from '../helpers/slow-chat-upstream.js';

/**
 * Three `gen-platform serve` processes (from dist/) on one PostgreSQL schema and one Redis,
 * behind a round-robin proxy. The Redis is this file's own, so it can be killed and restarted
 * without disturbing other tests; so is the PostgreSQL: a throwaway cluster, restarted mid-run,
 * or (where one cannot be made) a database of its own on the shared cluster, whose connections
 * are all terminated instead.
 */
const ADMIN = 'scale-out-admin-key-0123456789';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let upstream: SlowUpstream;
let redis: OwnRedis;
let cluster: OwnPostgres | undefined;
let ownDatabase: OwnDatabase | undefined;
let schema: { schema: string; drop(): Promise<void> };
let dataDir: string;
let configFile: string;
let servers: ServerProcess[] = [];
let proxy: Awaited<ReturnType<typeof startRoundRobin>>;

beforeAll(async () => {
  ensureBuilt();
  upstream = await startSlowUpstream({ chunks: 20, delayMs: 100 });
  redis = await OwnRedis.start();
  if (ownPostgresUnavailable() === undefined) cluster = await OwnPostgres.start();
  else ownDatabase = await OwnDatabase.create();
  const databaseUrl = cluster?.url ?? ownDatabase!.url;
  schema = await freshSchema();
  dataDir = mkdtempSync(path.join(tmpdir(), 'gen-platform-scale-'));
  configFile = path.join(dataDir, 'config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      ...upstreamModels(upstream.baseUrl),
      database: { url: databaseUrl, schema: schema.schema, pool_timeout_seconds: 2 },
      redis: { url: redis.url, lease_seconds: 1, timeout_ms: 300 },
      metrics: { enabled: true },
      security: { admin_key: ADMIN },
      shutdown: { grace_seconds: 20 },
      log: { level: 'info', requests: true },
    }),
  );
  // One first, so that the migrations run once; then the others side by side.
  servers.push(await startServer(configFile, dataDir));
  servers.push(...(await Promise.all([startServer(configFile, dataDir), startServer(configFile, dataDir)])));
  proxy = await startRoundRobin(() => servers.map((s) => s.base));
}, 120_000);

afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await proxy?.close();
  await upstream?.close();
  await redis?.kill();
  await cluster?.destroy();
  await ownDatabase?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function newKey(limits: { concurrent?: number; requests_per_minute?: number }): Promise<string> {
  const res = await fetch(`${servers[0]!.base}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'scale', limits: { concurrent: 0, requests_per_minute: 0, windows: [], ...limits } }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { key: string }).key;
}

const post = (base: string, url: string, key: string, body: unknown) =>
  fetch(`${base}${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const stream = (base: string, key: string) =>
  post(base, '/paas/v4/chat/completions', key, {
    model: 'gen-4.6',
    stream: true,
    messages: [{ role: 'user', content: 'hi' }],
  });
const search = (base: string, key: string) =>
  post(base, '/paas/v4/web_search', key, { search_engine: 'search-prime', search_query: 'limits' });

async function codeOf(res: Response): Promise<number> {
  if (res.status === 200) {
    await res.arrayBuffer();
    return 200;
  }
  return ((await res.json()) as { code: number }).code;
}

/** Waits (bounded) until the upstream has `n` streams open. */
async function upstreamOpen(n: number): Promise<void> {
  for (let i = 0; i < 100 && upstream.open !== n; i++) await sleep(50);
  expect(upstream.open).toBe(n);
}

describe('scale-out: three processes, one PostgreSQL, one Redis', () => {
  it('concurrent: 2 gives exactly 2 streams across the processes, and 1302 to the others', async () => {
    const key = await newKey({ concurrent: 2 });
    const first = await stream(proxy.base, key);
    const second = await stream(proxy.base, key);
    expect([first.status, second.status]).toEqual([200, 200]);
    await upstreamOpen(2);
    for (let i = 0; i < 3; i++) {
      const res = await stream(proxy.base, key);
      expect(res.status).toBe(429);
      expect(await codeOf(res)).toBe(1302);
    }
    const bodies = await Promise.all([first.text(), second.text()]);
    for (const b of bodies) expect(b.trimEnd().endsWith('data: [DONE]')).toBe(true);
    // Both slots are free again once the streams have ended.
    await upstreamOpen(0);
    const again = await stream(proxy.base, key);
    expect(again.status).toBe(200);
    await again.text();
  });

  it('requests_per_minute: 10 gives exactly 10 across the processes, then 1303', async () => {
    const key = await newKey({ requests_per_minute: 10 });
    const codes = await Promise.all(Array.from({ length: 16 }, () => search(proxy.base, key).then(codeOf)));
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 1303)).toHaveLength(6);
  });

  it('a key revoked on process A is refused on B and C within 1 s', async () => {
    const key = await newKey({});
    const id = key.split('.')[0]!;
    // Every process has read (and cached) the key.
    for (const s of servers) expect(await codeOf(await search(s.base, key))).toBe(200);
    const res = await fetch(`${servers[0]!.base}/admin/keys/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(res.status).toBe(200);
    await sleep(1000);
    for (const s of servers.slice(1)) {
      const refused = await search(s.base, key);
      expect(refused.status).toBe(401);
      expect(await codeOf(refused)).toBe(1004);
    }
  });

  it('/metrics on every process, in Prometheus text format', async () => {
    for (const s of servers) {
      const text = await (await fetch(`${s.base}/metrics`)).text();
      expect(text).toContain('# TYPE gen_platform_requests_total counter');
      expect(text).toContain('gen_platform_request_duration_seconds_bucket{');
    }
  });

  it('logs are pino JSON lines; each request has one line with its request id, operation and status', async () => {
    const key = await newKey({});
    await codeOf(await search(servers[1]!.base, key));
    await sleep(100);
    const lines = servers[1]!
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const request = lines.find(
      (l) => l['msg'] === 'request' && l['operation'] === 'web_search' && l['key'] === key.split('.')[0],
    );
    expect(request).toMatchObject({ status: 200, method: 'POST', level: 30 });
    expect(request!['reqId']).toBeTypeOf('string');
  });

  it(`PostgreSQL ${ownPostgresUnavailable() === undefined ? 'restarted' : 'connections all terminated'} mid-run: every process survives, answers 200 or 503 / 1305 meanwhile (never a 500), and serves again by itself`, async () => {
    const key = await newKey({});
    const pids = servers.map((s) => s.child.pid);
    const seen = new Map<string, number>();
    let stop = false;
    const load = async () => {
      while (!stop) {
        const res = await search(proxy.base, key);
        const label = `${res.status}/${res.status === 200 ? '' : await codeOf(res)}`;
        if (res.status === 200) await res.arrayBuffer();
        seen.set(label, (seen.get(label) ?? 0) + 1);
      }
    };
    const loads = [load(), load(), load()];
    await sleep(300);
    if (cluster) await cluster.restart();
    else for (let i = 0; i < 3; i++, await sleep(300)) await ownDatabase!.terminate();
    await sleep(500);
    stop = true;
    await Promise.all(loads);
    for (const label of seen.keys()) expect(['200/', '503/1305']).toContain(label);
    // A second of a stopped cluster is seen (web_search reads the index in PostgreSQL).
    if (cluster) expect(seen.get('503/1305'), JSON.stringify([...seen])).toBeGreaterThan(0);
    expect(servers.map((s) => s.child.exitCode)).toEqual(servers.map(() => null));
    expect(servers.map((s) => s.child.pid)).toEqual(pids);
    // Each process by itself (not only the one the proxy picks) serves again.
    for (const s of servers) {
      let code = 0;
      for (let i = 0; i < 100 && code !== 200; i++) {
        code = await codeOf(await search(s.base, key));
        if (code !== 200) await sleep(100);
      }
      expect(code).toBe(200);
    }
  });

  it('kill -9 of the process holding a slot frees the slot within the lease (1 s here)', async () => {
    const key = await newKey({ concurrent: 1 });
    const [victim, other] = [servers[0]!, servers[1]!];
    const held = await stream(victim.base, key);
    expect(held.status).toBe(200);
    // Keep reading (the slot is held while the stream is open); it breaks off when the victim dies.
    void held.text().catch(() => undefined);
    await upstreamOpen(1);
    expect(await codeOf(await search(other.base, key))).toBe(1302);
    victim.child.kill('SIGKILL');
    await victim.exited;
    servers = servers.filter((s) => s !== victim);
    let code = 0;
    const killedAt = Date.now();
    for (let i = 0; i < 100 && code !== 200; i++) {
      code = await codeOf(await search(other.base, key));
      if (code !== 200) await sleep(100);
    }
    expect(code).toBe(200);
    expect(Date.now() - killedAt).toBeLessThan(10_000);
  });

  it('SIGTERM: the process stops accepting, lets its open stream finish, and exits 0', async () => {
    const key = await newKey({});
    const target = servers.at(-1)!;
    const open = await stream(target.base, key);
    expect(open.status).toBe(200);
    const body = open.text();
    await sleep(200);
    target.child.kill('SIGTERM');
    expect((await body).trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(await target.exited).toBe(0);
    servers = servers.filter((s) => s !== target);
  });

  it('Redis restarted mid-run: limited keys get 1234 (502, retryable) while it is down, and pass once it is back', async () => {
    const key = await newKey({ requests_per_minute: 100 });
    const free = await newKey({});
    const base = servers[0]!.base;
    expect(await codeOf(await search(base, key))).toBe(200);
    await redis.kill();
    const down = await search(base, key);
    expect(down.status).toBe(502);
    expect(down.headers.get('retry-after')).toBe('1');
    expect(await codeOf(down)).toBe(1234);
    // Keys without limits do not need Redis.
    expect(await codeOf(await search(base, free))).toBe(200);
    await redis.start();
    let code = 0;
    for (let i = 0; i < 100 && code !== 200; i++) {
      code = await codeOf(await search(base, key));
      if (code !== 200) await sleep(100);
    }
    expect(code).toBe(200);
  });
});
