import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageRecorder } from '../../../src/services/usage/usage-recorder.js';
import { PostgresStore } from '../../../src/stores/postgres/postgres-store.js';
import type { UsageRecord } from '../../../src/stores/types.js';
import { DATABASE_URL, freshSchema } from '../../helpers/postgres.js';

const record = (keyId: string, createdAt: number): UsageRecord => ({
  keyId,
  operation: 'chat.completions',
  model: 'gen-4.6',
  requestId: `rid-${createdAt}`,
  promptTokens: 3,
  completionTokens: 2,
  status: 200,
  latencyMs: 1,
  createdAt,
});

let schema: { schema: string; drop(): Promise<void> };
let dir: string;
const stores: PostgresStore[] = [];
const open = async () => {
  const s = await PostgresStore.open({ url: DATABASE_URL, schema: schema.schema });
  stores.push(s);
  return s;
};
beforeAll(async () => {
  schema = await freshSchema();
  dir = mkdtempSync(path.join(tmpdir(), 'usage-pg-'));
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await schema.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('usage journals of several processes on one PostgreSQL', () => {
  it('a process that died leaves its journal; the next one to start stores it, once, however often it is replayed', async () => {
    // "Process" A takes 40 replies while its store refuses every write, then dies (no close).
    const storeA = await open();
    vi.spyOn(storeA, 'recordUsage').mockRejectedValue(new Error('terminating connection due to administrator command'));
    const a = new UsageRecorder(storeA, { journal: { dir, sync: 'fsync' }, retryMinMs: 60_000, onError: () => {} });
    await Promise.all(Array.from({ length: 40 }, (_, i) => a.record(record('k', 1_000 + i))));
    expect(readdirSync(dir)).toHaveLength(1);

    // B shares the data directory: at its start it takes A's journal over and stores it.
    const [leftName] = readdirSync(dir);
    const left = readFileSync(path.join(dir, leftName!));
    const storeB = await open();
    const b = new UsageRecorder(storeB, { journal: { dir, sync: 'fsync' }, onError: () => {} });
    await b.start();
    await Promise.all(Array.from({ length: 10 }, (_, i) => b.record(record('k', 2_000 + i))));
    await b.flush();
    expect(await storeB.usageWindow('k', 0)).toEqual({ count: 50, oldest: 1_000 });
    expect(b.usageStats().replayed).toBe(40);
    expect(readdirSync(dir)).not.toContain(leftName);

    // Had B died after storing A's records but before removing the file, C would replay it again.
    writeFileSync(path.join(dir, leftName!), left);
    const storeC = await open();
    const c = new UsageRecorder(storeC, { journal: { dir, sync: 'write' }, onError: () => {} });
    await c.start();
    expect(c.usageStats().replayed).toBe(40);
    expect(await storeC.usageWindow('k', 0)).toEqual({ count: 50, oldest: 1_000 });
    await b.close();
    await c.close();
  });
});
