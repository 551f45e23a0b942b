import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UsageRecord } from '../../src/stores/types.js';
import { writeTestModels } from '../../src/test-models/write-test-models.js';
import { onFirstDecode } from '../helpers/decode-hook.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { deployment } from './support.js';

/**
 * A client that leaves while the embedded engine still evaluates its long prompt lets go of the
 * only sequence at the next evaluation batch, on chat completions and on Responses alike. The same
 * prompt sent again then finds only what was evaluated before the client left (its cached tokens),
 * not the whole prompt. The call it left is billed the prompt tokens evaluated before it went.
 */

const MODEL = 'gen-4.7';
const LONG = 'lorem ipsum dolor '.repeat(200);

let dir: string;
let t: TestApp;
let base: string;
const records: UsageRecord[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'client-leaves-prompt-'));
  const paths = await writeTestModels(dir);
  t = await createTestApp({
    models: { [MODEL]: deployment(paths.programmed, { parallel: 1, context_size: 8192 }) },
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const store = t.services.store;
  const original = store.recordUsage.bind(store);
  vi.spyOn(store, 'recordUsage').mockImplementation(async (batch) => {
    records.push(...batch);
    return original(batch);
  });
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Posts `body` and leaves (closes the connection) once the engine starts evaluating its prompt. */
async function leaveDuringPrompt(path: string, body: unknown): Promise<void> {
  const ac = new AbortController();
  const left = new Promise<void>((resolve) => ac.signal.addEventListener('abort', () => resolve()));
  const restore = onFirstDecode(() => ac.abort());
  const sent = fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
    body: JSON.stringify(body),
    signal: ac.signal,
  }).then((res) => res.text());
  await left.finally(restore);
  await expect(sent).rejects.toThrow();
}

describe('a client that leaves during prompt evaluation', () => {
  it('chat completions (streamed): the next request gets the sequence before the prompt is evaluated', async () => {
    const path = '/paas/v4/chat/completions';
    const body = { model: MODEL, messages: [{ role: 'user', content: LONG }], max_tokens: 1 };
    await leaveDuringPrompt(path, { ...body, stream: true });
    const again = await t.post(path, body);
    expect(again.status).toBe(200);
    const usage = again.body['usage'] as { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } };
    expect(usage.prompt_tokens).toBeGreaterThan(3 * 512);
    expect(usage.prompt_tokens_details.cached_tokens).toBeLessThan(usage.prompt_tokens / 2);
  }, 90_000);

  it('Responses (whole reply): the same', async () => {
    const path = '/paas/v4/responses';
    // Differs from the first test's prompt at its start: nothing of it is reused.
    const body = { model: MODEL, instructions: 'Be brief.', input: LONG, max_output_tokens: 16, store: false };
    await leaveDuringPrompt(path, body);
    const again = await t.post(path, body);
    expect(again.status).toBe(200);
    const usage = again.body['usage'] as { input_tokens: number; input_tokens_details: { cached_tokens: number } };
    expect(usage.input_tokens).toBeGreaterThan(3 * 512);
    expect(usage.input_tokens_details.cached_tokens).toBeLessThan(usage.input_tokens / 2);
  }, 90_000);

  it('the call it left is recorded 499 with the prompt tokens evaluated before it went', async () => {
    const path = '/paas/v4/chat/completions';
    // Nothing of the earlier prompts is reused: the record counts this prompt's own evaluation.
    const messages = [{ role: 'user', content: `Another start. ${LONG}` }];
    const seen = records.length;
    await leaveDuringPrompt(path, { model: MODEL, messages, max_tokens: 1, stream: true });
    const find = () => records.slice(seen).find((r) => r.status === 499);
    await vi.waitFor(() => expect(find()).toBeDefined(), { timeout: 20_000, interval: 20 });
    const record = find()!;
    expect(record).toMatchObject({ operation: 'chat.completions', model: MODEL, completionTokens: 0 });
    const engine = await t.services.chat!.engineFor(MODEL);
    const whole = await engine.countTokens(messages as never, []);
    // At least the batch under way when the client went; the sequence let go before the whole prompt.
    expect(record.promptTokens).toBeGreaterThan(0);
    expect(record.promptTokens).toBeLessThan(whole);
  }, 90_000);
});
