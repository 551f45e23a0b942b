import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { closeServices, createServices } from '../../src/services/create-services.js';
import { SqliteDatabase } from '../../src/util/sqlite/driver.js';
import { ensureBuilt, type ServerProcess, startServer } from '../helpers/server-process.js';
import { type SlowUpstream, startSlowUpstream, upstreamModels } from '../helpers/slow-chat-upstream.js';

const servers: ServerProcess[] = [];
let upstream: SlowUpstream | undefined;
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await upstream?.close();
});

async function createKey(dir: string, config: string): Promise<string> {
  const { config: c } = loadConfig({ file: config, cwd: dir, env: { GEN_PLATFORM_DATA: dir } });
  const services = await createServices(c, { configDir: dir });
  const { key } = await services.keys.create({ name: 'kill-test' });
  await closeServices(services);
  return key;
}

/** One client: chat calls back to back, JSON and streamed in turn, each with its own request id. */
async function client(base: string, key: string, n: number, whole: string[], until: () => boolean) {
  for (let i = 0; !until(); i++) {
    const stream = i % 2 === 1;
    const requestId = `kill-${n}-${i}`;
    try {
      const res = await fetch(`${base}/paas/v4/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({
          model: 'gen-4.6',
          request_id: requestId,
          stream,
          messages: [{ role: 'user', content: 'hi' }],
        }),
      });
      const text = await res.text();
      const complete = stream ? text.endsWith('data: [DONE]\n\n') : text.trimEnd().endsWith('}');
      if (res.status === 200 && complete) whole.push(requestId);
    } catch {
      // The server was killed under this call: the reply was not received whole.
      return;
    }
  }
}

describe('usage records survive kill -9 of the server process', () => {
  it('every reply a client received whole has exactly one usage record after a restart', async () => {
    ensureBuilt();
    upstream = await startSlowUpstream({ chunks: 2, delayMs: 1 });
    const dir = mkdtempSync(path.join(tmpdir(), 'usage-kill9-'));
    const config = path.join(dir, 'gen-platform.json');
    writeFileSync(config, JSON.stringify({ log: { level: 'silent' }, ...upstreamModels(upstream.baseUrl) }));
    const key = await createKey(dir, config);

    const first = await startServer(config, dir);
    servers.push(first);
    const whole: string[] = [];
    let killed = false;
    const clients = [0, 1, 2, 3, 4, 5].map((n) => client(first.base, key, n, whole, () => killed));
    // Killed in the middle of the load, with records in the journal that the store has not got yet.
    await expect.poll(() => whole.length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(150);
    first.child.kill('SIGKILL');
    killed = true;
    await first.exited;
    await Promise.all(clients);
    const left = readdirSync(path.join(dir, 'usage-journal'));
    expect(left.length).toBeGreaterThan(0);

    // The restart replays the journal before it serves.
    const second = await startServer(config, dir);
    servers.push(second);
    const db = new SqliteDatabase(path.join(dir, 'gen-platform.db'), { readonly: true });
    const counts = new Map(
      (
        db.prepare('SELECT request_id, COUNT(*) AS n FROM usage_records GROUP BY request_id').all() as {
          request_id: string;
          n: number;
        }[]
      ).map((r) => [r.request_id, r.n]),
    );
    db.close();
    const missing = whole.filter((id) => !counts.has(id));
    const twice = [...counts].filter(([, n]) => n > 1);
    expect({ completed: whole.length, missing, twice }).toEqual({ completed: whole.length, missing: [], twice: [] });
    // The dead process's journal is gone once replayed.
    expect(readdirSync(path.join(dir, 'usage-journal')).filter((n) => left.includes(n))).toEqual([]);

    second.child.kill('SIGTERM');
    await second.exited;
    rmSync(dir, { recursive: true, force: true });
  }, 180_000);
});
