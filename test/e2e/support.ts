import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type TestModelPaths, writeTestModels } from '../../src/test-models/write-test-models.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

/** Sends a JSON POST with the app's key and returns the raw answer (through inject or a socket). */
export type Send = (url: string, body: unknown) => Promise<RawResponse>;

export interface E2eServer {
  t: TestApp;
  paths: TestModelPaths;
  /** `http://127.0.0.1:<port>` when listening. */
  base: string;
  inject: Send;
  socket: Send;
  close(): Promise<void>;
}

/** A deployment of a test model on the embedded engine: one thread, a small window. */
export const deployment = (model: string, extra: Record<string, unknown> = {}) => ({
  deployments: [{ engine: 'llama-cpp', model, threads: 1, context_size: 2048, parallel: 2, ...extra }],
});

/** Writes the test models into a temp dir, starts an app on them and (optionally) a socket. */
export async function startServer(
  models: (paths: TestModelPaths) => Record<string, unknown>,
  options: { listen?: boolean } = {},
): Promise<E2eServer> {
  const dir = await mkdtemp(join(tmpdir(), 'e2e-models-'));
  const paths = await writeTestModels(dir);
  const t = await createTestApp({ models: models(paths) });
  let base = '';
  if (options.listen) base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${t.key}` };
  return {
    t,
    paths,
    base,
    async inject(url, body) {
      const res = await t.app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
      return { status: res.statusCode, headers: res.headers, text: res.payload };
    },
    async socket(url, body) {
      const res = await fetch(`${base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
    },
    async close() {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

export interface WireToolCall {
  id: string;
  index: number;
  type: string;
  function: { name: string; arguments: string };
}

export interface Delta {
  role?: string;
  content?: string;
  reasoning_content?: string;
  tool_calls?: WireToolCall[];
}

export interface Chunk {
  id: string;
  created: number;
  object: string;
  model: string;
  choices: { index: number; delta: Delta; finish_reason?: string }[];
  usage?: WireUsage;
}

export interface Completion {
  id: string;
  request_id: string;
  created: number;
  object: string;
  model: string;
  choices: {
    index: number;
    finish_reason: string;
    message: { role: string; content: string; reasoning_content?: string; tool_calls?: WireToolCall[] };
  }[];
  usage: WireUsage;
}

/** docs/wire.md, "Ids": UTC yyyyMMddHHmmss and 16 lowercase hex characters. */
export const PLATFORM_ID = /^\d{14}[0-9a-f]{16}$/;
export const TOOL_CALL_ID = /^call_[0-9a-f]{24}$/;

export function expectUsage(usage: WireUsage | undefined): asserts usage is WireUsage {
  expect(usage).toBeDefined();
  expect(Object.keys(usage as WireUsage)).toEqual([
    'prompt_tokens',
    'completion_tokens',
    'total_tokens',
    'prompt_tokens_details',
    'completion_tokens_details',
  ]);
  const u = usage as WireUsage;
  expect(u.prompt_tokens).toBeGreaterThan(0);
  expect(u.total_tokens).toBe(u.prompt_tokens + u.completion_tokens);
  expect(Object.keys(u.prompt_tokens_details)).toEqual(['cached_tokens']);
  expect(Object.keys(u.completion_tokens_details)).toEqual(['reasoning_tokens']);
}

/** A whole (non-stream) JSON reply: status 200, JSON content type, the §3 shape. */
export function completionOf(res: RawResponse, model: string): Completion {
  expect(res.status, res.text).toBe(200);
  expect(String(res.headers['content-type']).toLowerCase()).toBe('application/json; charset=utf-8');
  const body = JSON.parse(res.text) as Completion;
  expect(Object.keys(body)).toEqual(['id', 'request_id', 'created', 'object', 'model', 'choices', 'usage']);
  expect(body.id).toMatch(PLATFORM_ID);
  expect(Number.isInteger(body.created)).toBe(true);
  expect(body.object).toBe('chat.completion');
  expect(body.model).toBe(model);
  expect(body.choices).toHaveLength(1);
  expect(body.choices[0]?.index).toBe(0);
  expect(body.choices[0]?.message.role).toBe('assistant');
  expectUsage(body.usage);
  return body;
}

/**
 * A stream checked byte for byte against docs/wire.md, "Chat completions": every event exactly one `data: ` line
 * and a blank line, no other fields, `data: [DONE]` last; one id and `created` throughout; no
 * finish reason before the last chunk; `role` on every text and reasoning delta; reasoning before
 * content; the last chunk `{role, content: ""}` with the finish reason and the usage.
 */
export function streamOf(res: RawResponse, model: string, options: { usageKnown?: boolean } = {}): Chunk[] {
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toBe('text/event-stream;charset=UTF-8');
  const text = res.text;
  expect(text.endsWith('data: [DONE]\n\n'), text.slice(-200)).toBe(true);
  const events = text.slice(0, -2).split('\n\n');
  for (const event of events) {
    expect(event.startsWith('data: '), event).toBe(true);
    expect(event.includes('\n'), `one line per event: ${JSON.stringify(event)}`).toBe(false);
  }
  expect(events.at(-1)).toBe('data: [DONE]');
  expect(events.filter((e) => e === 'data: [DONE]')).toHaveLength(1);
  const lines = events.slice(0, -1).map((e) => e.slice('data: '.length));
  const chunks = lines.map((l) => JSON.parse(l) as Chunk);
  expect(chunks.length).toBeGreaterThanOrEqual(2);
  const [first] = chunks as [Chunk];
  expect(first.id).toMatch(PLATFORM_ID);
  expect(Number.isInteger(first.created)).toBe(true);
  let contentSeen = false;
  chunks.forEach((chunk, i) => {
    const last = i === chunks.length - 1;
    expect(Object.keys(chunk)).toEqual(['id', 'created', 'object', 'model', 'choices', ...(last ? ['usage'] : [])]);
    expect(chunk.id).toBe(first.id);
    expect(chunk.created).toBe(first.created);
    expect(chunk.object).toBe('chat.completion.chunk');
    expect(chunk.model).toBe(model);
    expect(chunk.choices).toHaveLength(1);
    const choice = chunk.choices[0]!;
    expect(choice.index).toBe(0);
    const { delta } = choice;
    if (last) return;
    expect('finish_reason' in choice, `intermediate chunk ${i} has no finish_reason`).toBe(false);
    if (delta.tool_calls) return;
    expect(delta.role, `role on text/reasoning delta ${i}`).toBe('assistant');
    if (delta.content !== undefined) {
      expect(delta.content.length).toBeGreaterThan(0);
      contentSeen = true;
    }
    if (delta.reasoning_content !== undefined) expect(contentSeen, 'reasoning after content').toBe(false);
    expect(delta.content === undefined ? 1 : 0).toBe(delta.reasoning_content === undefined ? 0 : 1);
  });
  const last = chunks.at(-1)!;
  expect(Object.keys(last.choices[0]!)).toEqual(['index', 'delta', 'finish_reason']);
  expect(last.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
  expect(typeof last.choices[0]!.finish_reason).toBe('string');
  // A stream cut off upstream ends before the upstream said what it used: the usage is zeros.
  if (options.usageKnown === false) expect(last.usage).toMatchObject({ prompt_tokens: 0, total_tokens: 0 });
  else expectUsage(last.usage);
  const u = last.usage as WireUsage;
  // Byte-exact serialisation of the last chunk (key order of docs/wire.md, "Chat completions").
  expect(lines.at(-1)).toBe(
    `{"id":"${first.id}","created":${first.created},"object":"chat.completion.chunk","model":"${model}",` +
      `"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"${last.choices[0]!.finish_reason}"}],` +
      `"usage":{"prompt_tokens":${u.prompt_tokens},"completion_tokens":${u.completion_tokens},"total_tokens":${u.total_tokens},` +
      `"prompt_tokens_details":{"cached_tokens":${u.prompt_tokens_details.cached_tokens}},` +
      `"completion_tokens_details":{"reasoning_tokens":${u.completion_tokens_details.reasoning_tokens}}}}`,
  );
  return chunks;
}

export const joined = (chunks: Chunk[], field: 'content' | 'reasoning_content') =>
  chunks.map((c) => c.choices[0]?.delta[field] ?? '').join('');

export const finishOf = (chunks: Chunk[]) => chunks.at(-1)?.choices[0]?.finish_reason;
