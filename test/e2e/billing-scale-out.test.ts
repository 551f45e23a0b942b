import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, freshSchema } from '../helpers/postgres.js';
import { freshPrefix, REDIS_URL } from '../helpers/redis.js';
import { ensureBuilt, type ServerProcess, startRoundRobin, startServer } from '../helpers/server-process.js';
import { type SlowUpstream, startSlowUpstream, upstreamModels } from '../helpers/slow-chat-upstream.js';

/**
 * Money across three `gen-platform serve` processes (from dist/) on one PostgreSQL schema and one
 * Redis, behind a round-robin proxy: a balance that covers exactly 37 calls admits exactly 37 of
 * 200, and a process killed with SIGKILL mid-call leaves reservations that the others release
 * within the lease, with the ledger equal to the usage records to the minor unit.
 */
const ADMIN = 'billing-scale-admin-key-0123456789';
const LEASE_SECONDS = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let upstream: SlowUpstream;
let schema: { schema: string; drop(): Promise<void> };
let dataDir: string;
const servers: ServerProcess[] = [];
let proxy: Awaited<ReturnType<typeof startRoundRobin>>;

beforeAll(async () => {
  ensureBuilt();
  upstream = await startSlowUpstream({ chunks: 10, delayMs: 100 });
  schema = await freshSchema();
  dataDir = mkdtempSync(path.join(tmpdir(), 'gen-platform-money-'));
  const configFile = path.join(dataDir, 'config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      ...upstreamModels(upstream.baseUrl),
      database: { url: DATABASE_URL, schema: schema.schema },
      redis: { url: REDIS_URL, prefix: freshPrefix() },
      security: { admin_key: ADMIN },
      accounts: { concurrent: 0, requests_per_minute: 0 },
      prices: { 'gen-4.6': { per_call: '0.01', output_per_million: '1000' } },
      billing: { lease_seconds: LEASE_SECONDS },
      log: { level: 'warn' },
    }),
  );
  // One first, so that the migrations run once; then the others side by side.
  servers.push(await startServer(configFile, dataDir));
  servers.push(...(await Promise.all([startServer(configFile, dataDir), startServer(configFile, dataDir)])));
  proxy = await startRoundRobin(() => servers.filter((s) => s.child.exitCode === null).map((s) => s.base));
}, 300_000);

afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await proxy?.close();
  await upstream?.close();
  await schema?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A decimal string of the API as millionths (exact: no float). */
function micros(text: string): number {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const value = Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
  return negative ? -value : value;
}

async function admin(method: string, url: string, body?: unknown, base = servers[0]!.base) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** An account credited `amount`, and a key it holds without limits of its own. */
async function funded(amount: string): Promise<{ account: string; key: string; keyId: string }> {
  const made = await admin('POST', '/admin/accounts', { name: 'Payer', email: `payer-${Math.random()}@example.test` });
  const account = made['id'] as string;
  await admin('POST', `/admin/accounts/${account}/credit`, { amount });
  const key = (
    await admin('POST', '/admin/keys', {
      name: 'payer',
      account,
      limits: { concurrent: 0, requests_per_minute: 0, windows: [] },
    })
  )['key'] as string;
  return { account, key, keyId: key.split('.')[0]! };
}

const chat = (base: string, key: string, stream = false) =>
  fetch(`${base}/paas/v4/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gen-4.6', stream, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }),
  });

async function balanceOf(account: string, base = servers[0]!.base) {
  const b = await admin('GET', `/admin/accounts/${account}/balance`, undefined, base);
  return { balance: micros(b['balance'] as string), reserved: micros(b['reserved'] as string) };
}

/** The sum of the account's ledger, and of its entries for calls. */
async function ledgerOf(account: string, base = servers[0]!.base) {
  const entries = (await admin('GET', `/admin/ledger?account=${account}&limit=1000`, undefined, base))['data'] as {
    amount: string;
    kind: string;
  }[];
  const sum = entries.reduce((s, e) => s + micros(e.amount), 0);
  const usage = entries.filter((e) => e.kind === 'usage').reduce((s, e) => s + micros(e.amount), 0);
  return { sum, usage, entries: entries.length };
}

/**
 * Waits (bounded) until every live process's price book has the admin's edit of gen-4.6 in force
 * (`on`), or the configured price again: each reads the store's edits on its own refresh.
 */
async function pricedPerCallEverywhere(on: boolean, withinMs = 30_000) {
  const until = Date.now() + withinMs;
  for (;;) {
    const views = await Promise.all(
      servers
        .filter((s) => s.child.exitCode === null)
        .map(async (s) => {
          const list = (await admin('GET', '/admin/prices', undefined, s.base))['data'] as Record<string, unknown>[];
          return list.find((p) => p['code'] === 'gen-4.6')?.['source'] === 'edited';
        }),
    );
    if (views.every((v) => v === on)) return;
    if (Date.now() > until) throw new Error(`a process did not pick up the price change within ${withinMs} ms`);
    await sleep(100);
  }
}

/** Waits (bounded) until nothing is reserved and every record is written: usage is written in batches. */
async function settled(account: string, base?: string, withinMs = 15_000) {
  const until = Date.now() + withinMs;
  for (;;) {
    const b = await balanceOf(account, base);
    const l = await ledgerOf(account, base);
    if ((b.reserved === 0 && b.balance === l.sum) || Date.now() > until) return { ...b, ledger: l };
    await sleep(200);
  }
}

describe('money across three processes on PostgreSQL + Redis', () => {
  it('200 concurrent calls against a balance that covers the cost of 37: at most 37 succeed, fewer only while worst cases are held', async () => {
    // Each call's worst case: 0.01 a call + 20 tokens at 1000 per million = 0.03; it costs 0.01 + 10 × 0.001.
    const { account, key, keyId } = await funded('0.74');
    const replies = await Promise.all(
      Array.from({ length: 200 }, () =>
        chat(proxy.base, key).then(async (res) => ({
          status: res.status,
          body: (await res.json()) as { code?: number },
        })),
      ),
    );
    const ok = replies.filter((r) => r.status === 200).length;
    const refused = replies.filter((r) => r.status === 429 && r.body.code === 1113).length;
    // Refused only for money: a reservation of a call still running may refuse a call that would
    // have fitted after it (the worst case is held until the call ends): at most 37 succeed.
    expect(ok + refused).toBe(200);
    expect(ok).toBeGreaterThanOrEqual(24);
    expect(ok).toBeLessThanOrEqual(37);
    const end = await settled(account);
    expect(end.reserved).toBe(0);
    expect(end.balance).toBeGreaterThanOrEqual(0);
    expect(end.balance).toBe(end.ledger.sum);
    expect(end.balance).toBe(740_000 - ok * 20_000);
    const usage = await admin('GET', `/admin/keys/${keyId}/usage`);
    expect(micros(usage['cost'] as string)).toBe(-end.ledger.usage);
  }, 120_000);

  it('with worst case equal to cost, exactly 37 of 200 succeed', async () => {
    const { account, key } = await funded('0.37');
    // Reserved in full by a price per call only: the worst case is the cost.
    await admin('PUT', '/admin/prices/gen-4.6', { per_call: '0.01' });
    try {
      // Every process reads prices from the store within its refresh: wait until each has it.
      await pricedPerCallEverywhere(true);
      const statuses = await Promise.all(
        Array.from({ length: 200 }, () => chat(proxy.base, key).then((r) => r.status)),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(37);
      expect(statuses.filter((s) => s === 429)).toHaveLength(163);
    } finally {
      await admin('DELETE', '/admin/prices/gen-4.6');
      await pricedPerCallEverywhere(false);
    }
    const end = await settled(account);
    expect(end).toMatchObject({ balance: 0, reserved: 0 });
    expect(end.ledger.sum).toBe(0);
  }, 120_000);

  it('a process killed mid-call: its reservations are released within the lease, costs equal records', async () => {
    const { account, key, keyId } = await funded('1');
    const victim = servers[2]!;
    const survivor = servers[0]!.base;
    // Streams held open on the victim (10 chunks, 100 ms apart), and whole calls on the others.
    const streams = await Promise.all(Array.from({ length: 4 }, () => chat(victim.base, key, true)));
    for (const s of streams) {
      expect(s.status).toBe(200);
      await s.body!.getReader().read();
    }
    const others = Promise.all(Array.from({ length: 4 }, () => chat(survivor, key).then((r) => r.status)));
    expect((await balanceOf(account, survivor)).reserved).toBeGreaterThan(0);
    victim.child.kill('SIGKILL');
    await victim.exited;
    const killedAt = Date.now();
    expect(await others).toEqual([200, 200, 200, 200]);
    // Released by a live process within the lease (plus one renewal period of the releaser).
    const end = await settled(account, survivor, (LEASE_SECONDS + LEASE_SECONDS / 3 + 5) * 1000);
    expect(end.reserved).toBe(0);
    expect(Date.now() - killedAt).toBeLessThan((LEASE_SECONDS * 2 + 5) * 1000);
    expect(end.balance).toBe(end.ledger.sum);
    expect(end.balance).toBeGreaterThanOrEqual(0);
    const usage = await admin('GET', `/admin/keys/${keyId}/usage`, undefined, survivor);
    expect(micros(usage['cost'] as string)).toBe(-end.ledger.usage);
    expect(end.balance).toBe(1_000_000 + end.ledger.usage);
  }, 120_000);
});
