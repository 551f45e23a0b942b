import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReplayControl } from '../engines/image/replay/common.js';
import { startOpenAIReplay } from '../engines/image/replay/openai-replay.js';
import { DATABASE_URL, freshSchema } from '../helpers/postgres.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const ASYNC = '/paas/v4/async/images/generations';

/**
 * One key floods the async image queue (the attack: its tasks filled the whole queue and every
 * other key got 1305): it keeps only its share, admitted atomically under 50 concurrent
 * submissions, and another key's task is still accepted. On SQLite, and on PostgreSQL with the
 * submissions split over two servers sharing the queue.
 */
function queueShareSuite(label: string, open: () => Promise<{ apps: TestApp[]; close(): Promise<void> }>): void {
  describe(`the async image queue is shared out per key and account: ${label}`, () => {
    let replay: ReplayControl;
    let apps: TestApp[];
    let close: () => Promise<void>;
    const app = (i: number) => apps[i % apps.length]!;
    const submit = (i: number, key: string) => app(i).post(ASYNC, { model: 'gen-image', prompt: `fox ${i}` }, key);

    beforeAll(async () => {
      replay = await startOpenAIReplay();
      // Every job runs far longer than the test: what is admitted stays waiting.
      replay.delayMs = 600_000;
      process.env['QUEUE_SHARE_REPLAY'] = replay.url;
      ({ apps, close } = await open());
      // The only worker slots of every server hold a task, so nothing leaves the queue meanwhile.
      const blocker = await app(0).newKey();
      for (let i = 0; i < apps.length; i++) expect((await submit(i, blocker)).status).toBe(200);
      const waiting = () =>
        app(0).services.store.tasks.waitingShares('images.generations', 'none', undefined, Date.now());
      await vi.waitFor(async () => expect((await waiting()).queue).toBe(0), { timeout: 10_000, interval: 50 });
    });
    afterAll(async () => {
      await close?.();
      await replay?.close();
    });

    it('holds one key to images.queue_per_key under 50 concurrent submissions; another key is still accepted', async () => {
      const flooder = await app(0).newKey();
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => submit(i, flooder)));
      const accepted = answers.filter((a) => a.status === 200);
      expect(accepted).toHaveLength(10);
      const refused = answers.filter((a) => a.status !== 200);
      expect(refused).toHaveLength(40);
      for (const r of refused) {
        expect(r.status).toBe(429);
        expect(r.body['code']).toBe(1302);
        expect(String(r.body['message'])).toMatch(/images\.queue_per_key/);
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(
        await app(1).post(ASYNC, { model: 'gen-image', prompt: 'a lone fox' }, await app(0).newKey()),
      ).toMatchObject({
        status: 200,
      });
    });

    it('holds the keys of one account together to images.queue_per_account', async () => {
      const [k1, k2] = [await app(0).newKey(), await app(0).newKey()];
      for (const k of [k1, k2]) await app(0).services.store.accounts.setKeyOwner(k.split('.')[0]!, 'acct-flood');
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => submit(i, i % 2 ? k1 : k2)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(15);
      const refused = answers.filter((a) => a.status !== 200);
      expect(refused.every((r) => r.body['code'] === 1302)).toBe(true);
      expect(refused.some((r) => /images\.queue_per_account/.test(String(r.body['message'])))).toBe(true);
    });

    it('answers 1305 naming images.queue_size once the whole queue is full', async () => {
      // 10 + 1 + 15 wait; four more keys fill the queue's 30 places.
      for (let i = 0; i < 4; i++) expect((await submit(i, await app(0).newKey())).status).toBe(200);
      const full = await submit(0, await app(0).newKey());
      expect(full.status).toBe(503);
      expect(full.body['code']).toBe(1305);
      expect(String(full.body['message'])).toMatch(/images\.queue_size/);
    });
  });
}

const config = () => ({
  models: {
    'gen-image': {
      deployments: [{ engine: 'openai-compatible', base_url: process.env['QUEUE_SHARE_REPLAY'], model: 'm' }],
    },
  },
  images: { concurrency: 1, poll_interval_ms: 100, queue_size: 30, queue_per_key: 10, queue_per_account: 15 },
  // The request limits are not what this test is about.
  limits: { concurrent: 0 },
  accounts: { concurrent: 0 },
});

queueShareSuite('sqlite', async () => {
  const t = await createTestApp(config());
  return { apps: [t], close: () => t.close() };
});

queueShareSuite('postgres, two servers', async () => {
  const { schema, drop } = await freshSchema();
  const shared = { ...config(), database: { url: DATABASE_URL, schema } };
  const apps = [await createTestApp(shared), await createTestApp(shared)];
  return {
    apps,
    async close() {
      for (const a of apps) await a.close();
      await drop();
    },
  };
});
