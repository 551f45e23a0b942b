import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseStore, StoredResponse } from '../../src/stores/responses.js';

export interface ResponseStoreFixture {
  responses: ResponseStore;
  /** The same data through a second connection, as another process would see it. */
  reopen(): Promise<ResponseStore>;
  close(): Promise<void>;
}

const NOW = 1_800_000_000_000;
const DAY = 86_400_000;

const stored = (id: string, keyId: string, extra: Partial<StoredResponse> = {}): StoredResponse => ({
  id,
  keyId,
  createdAt: NOW,
  expiresAt: NOW + 30 * DAY,
  response: JSON.stringify({ id, object: 'response', output: [{ type: 'message', text: 'Привет 👋 你好' }] }),
  input: JSON.stringify([{ role: 'user', content: 'Hi' }]),
  ...extra,
});

/** The stored-responses sub-interface's contract: every store runs this same suite. */
export function runResponseStoreContract(label: string, setup: () => Promise<ResponseStoreFixture>): void {
  describe(`response store contract: ${label}`, () => {
    let f: ResponseStoreFixture;
    beforeAll(async () => {
      f = await setup();
    });
    afterAll(async () => {
      await f.close();
    });

    it('reads back what it saved, text and numbers intact', async () => {
      const r = stored('resp_1', 'key-a');
      await f.responses.save(r);
      expect(await f.responses.get('key-a', 'resp_1', NOW)).toEqual(r);
    });

    it("finds nothing for an unknown id, another key's response or an expired one", async () => {
      await f.responses.save(stored('resp_2', 'key-a', { expiresAt: NOW + 1000 }));
      expect(await f.responses.get('key-a', 'resp_nope', NOW)).toBeUndefined();
      expect(await f.responses.get('key-b', 'resp_2', NOW)).toBeUndefined();
      expect(await f.responses.get('key-a', 'resp_2', NOW + 999)).toBeDefined();
      expect(await f.responses.get('key-a', 'resp_2', NOW + 1000)).toBeUndefined();
    });

    it('a second save of one id replaces the first', async () => {
      await f.responses.save(stored('resp_3', 'key-a', { response: '{"v":1}' }));
      await f.responses.save(stored('resp_3', 'key-a', { response: '{"v":2}' }));
      expect((await f.responses.get('key-a', 'resp_3', NOW))?.response).toBe('{"v":2}');
    });

    it("deletes only the owner's response, once", async () => {
      await f.responses.save(stored('resp_4', 'key-a'));
      expect(await f.responses.delete('key-b', 'resp_4')).toBe(false);
      expect(await f.responses.get('key-a', 'resp_4', NOW)).toBeDefined();
      expect(await f.responses.delete('key-a', 'resp_4')).toBe(true);
      expect(await f.responses.delete('key-a', 'resp_4')).toBe(false);
      expect(await f.responses.get('key-a', 'resp_4', NOW)).toBeUndefined();
    });

    it('is seen through another connection, a long text whole', async () => {
      const long = `[${JSON.stringify('x'.repeat(300_000))}]`;
      await f.responses.save(stored('resp_5', 'key-c', { input: long }));
      const other = await f.reopen();
      expect((await other.get('key-c', 'resp_5', NOW))?.input).toBe(long);
    });

    it('purges what expired, then the oldest beyond a key’s cap, then beyond the total cap', async () => {
      const big = 'y'.repeat(1000);
      // key-p: four of about 1 KB a second apart; key-q: two.
      for (let i = 0; i < 4; i++)
        await f.responses.save(stored(`resp_p${i}`, 'key-p', { createdAt: NOW + i * 1000, input: big }));
      for (let i = 0; i < 2; i++)
        await f.responses.save(stored(`resp_q${i}`, 'key-q', { createdAt: NOW + 10_000 + i * 1000, input: big }));
      await f.responses.save(stored('resp_old', 'key-q', { expiresAt: NOW - 1, input: big }));
      const unlimited = Number.MAX_SAFE_INTEGER;
      // Only the expired goes (with whatever earlier tests left expired by then).
      expect(await f.responses.purge({ now: NOW, maxBytesPerKey: unlimited, maxBytes: unlimited })).toBe(1);
      const size = Buffer.byteLength(stored('resp_p0', 'key-p', { input: big }).response) + 1000;
      // Room for two per key: key-p loses its two oldest.
      await f.responses.purge({ now: NOW, maxBytesPerKey: 2 * size + 100, maxBytes: unlimited });
      /** Which of these are still there (`resp_p…` are key-p's, `resp_q…` key-q's). */
      const left = async (ids: string[]) => {
        const found = await Promise.all(ids.map((id) => f.responses.get(`key-${id[5]}`, id, NOW)));
        return ids.filter((_, i) => found[i] !== undefined);
      };
      expect(await left(['resp_p0', 'resp_p1', 'resp_p2', 'resp_p3'])).toEqual(['resp_p2', 'resp_p3']);
      expect(await left(['resp_q0', 'resp_q1'])).toEqual(['resp_q0', 'resp_q1']);
      // A total cap keeps the newest across keys.
      const total = await f.responses.purge({ now: NOW, maxBytesPerKey: unlimited, maxBytes: 3 * size + 100 });
      expect(total).toBeGreaterThanOrEqual(1);
      expect(await left(['resp_p2', 'resp_p3'])).toEqual(['resp_p3']);
      expect(await left(['resp_q0', 'resp_q1'])).toEqual(['resp_q0', 'resp_q1']);
    });
  });
}
