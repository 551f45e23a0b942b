import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JournalSegment } from '../../src/services/usage/journal-segment.js';
import type { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { type SlowUpstream, startSlowUpstream, upstreamModels } from '../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let up: SlowUpstream;
let address: string;

beforeAll(async () => {
  up = await startSlowUpstream({ chunks: 3, delayMs: 1 });
  // The store gets its batch long after the reply: what the client sees is the journal's doing.
  t = await createTestApp(upstreamModels(up.baseUrl));
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await up.close();
});

let counter = 0;
const freshId = () => `durable-${process.pid}-${++counter}`;
const journalText = () => {
  const dir = path.join(t.dataDir, 'usage-journal');
  return readdirSync(dir)
    .map((n) => readFileSync(path.join(dir, n), 'utf8'))
    .join('');
};

const storedIds = () =>
  (
    (t.services.store as SqliteStore).db.prepare('SELECT request_id FROM usage_records').all() as {
      request_id: string;
    }[]
  ).map((r) => r.request_id);

async function chat(stream: boolean, requestId: string) {
  const res = await fetch(`${address}/paas/v4/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
    body: JSON.stringify({
      model: 'gen-4.6',
      request_id: requestId,
      stream,
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
  return { res, text: await res.text().catch(() => '<cut>') };
}

describe('a reply ends only once its usage record is durable', () => {
  it('JSON: the record is in the journal (or already in the store) when the reply arrives', async () => {
    for (let i = 0; i < 5; i++) {
      const id = freshId();
      const { res } = await chat(false, id);
      expect(res.status).toBe(200);
      expect(journalText().includes(`"${id}"`) || storedIds().includes(id)).toBe(true);
    }
  });

  it('a stream: the record is in the journal when data: [DONE] arrives, and the last chunk comes with it', async () => {
    const id = freshId();
    const res = await fetch(`${address}/paas/v4/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
      body: JSON.stringify({
        model: 'gen-4.6',
        request_id: id,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    let text = '';
    let durableAtDone: boolean | undefined;
    const decoder = new TextDecoder();
    const reader = res.body!.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      text += decoder.decode(part.value, { stream: true });
      if (durableAtDone === undefined && text.includes('data: [DONE]')) {
        durableAtDone = journalText().includes(`"${id}"`) || storedIds().includes(id);
      }
    }
    expect(durableAtDone).toBe(true);
    expect(text).toMatch(/"finish_reason":"stop".*\n\ndata: \[DONE\]\n\n$/s);
    await vi.waitFor(async () =>
      expect((await t.services.store.usageTotals(t.key.split('.')[0]!)).requests).toBeGreaterThan(0),
    );
  });

  it("a refused request's unvalidated model and request_id are kept only if a valid one could carry them", async () => {
    const key = await t.newKey();
    const keyId = key.split('.')[0]!;
    const body = {
      model: 'gen\u00004.6',
      request_id: 'r'.repeat(100_000),
      messages: [{ role: 'user', content: 'hi' }],
    };
    expect((await t.post('/paas/v4/chat/completions', body, key)).status).toBe(400);
    await t.services.usage.flush();
    const rows = (t.services.store as SqliteStore).db
      .prepare('SELECT model, request_id FROM usage_records WHERE key_id = ?')
      .all(keyId);
    expect(rows).toEqual([{ model: null, request_id: null }]);
  });

  it('when the journal cannot be written: JSON is 503 1305 with Retry-After, a stream is cut before [DONE]; the records are kept', async () => {
    const keyId = t.key.split('.')[0]!;
    await t.services.usage.flush();
    const before = (await t.services.store.usageTotals(keyId)).requests;
    const append = vi.spyOn(JournalSegment.prototype, 'append').mockImplementation(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    try {
      const json = await chat(false, freshId());
      expect(json.res.status).toBe(503);
      expect(json.res.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(json.text)).toMatchObject({ error: { code: '1305' } });
      expect(JSON.parse(json.text).error.message).toContain('no space left');
      const stream = await chat(true, freshId());
      expect(stream.text).not.toContain('[DONE]');
    } finally {
      append.mockRestore();
    }
    expect(t.services.usage.usageStats().journalFailures).toBe(2);
    await t.services.usage.flush();
    expect((await t.services.store.usageTotals(keyId)).requests).toBe(before + 2);
  });
});
