import { expect } from 'vitest';
import { ConfigSchema } from '../../src/config/schema.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * Config overrides for an app with no engine: every valid request then answers 1211 "not
 * configured", which is how these suites see that validation passed. Where the config has an
 * embedded default model (served for every unmapped chat code), it is switched off.
 */
export function withoutEngines(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const embedded = 'embedded' in ConfigSchema.properties ? { embedded: { default_model: '' } } : {};
  return { ...embedded, ...overrides };
}

/** What `TestApp.post` answers. */
export type Answer = Awaited<ReturnType<TestApp['post']>>;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Body = { [key: string]: Json };

export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';

/** One valid example body per operation, and the answer that shows validation passed. */
export interface OperationExample {
  name: string;
  url: string;
  body: Body;
  /** Engines are not configured in tests: a valid request answers this code. */
  passCode: 1211 | 1233;
}

export const EXAMPLES = {
  tokenizer: {
    name: 'tokenizer',
    url: '/paas/v4/tokenizer',
    body: { model: 'gen-4.6', messages: [{ role: 'user', content: 'Hello' }] },
    passCode: 1211,
  },
  chat: {
    name: 'chat.completions',
    url: '/paas/v4/chat/completions',
    body: { model: 'gen-4.6', messages: [{ role: 'user', content: 'Hello' }] },
    passCode: 1211,
  },
  images: {
    name: 'images.generations',
    url: '/paas/v4/images/generations',
    body: { model: 'gen-image', prompt: 'A cat on a mat' },
    passCode: 1211,
  },
  asyncImages: {
    name: 'async.images.generations',
    url: '/paas/v4/async/images/generations',
    body: { model: 'gen-image', prompt: 'A cat on a mat' },
    passCode: 1211,
  },
  agents: {
    name: 'agents',
    url: '/v1/agents',
    body: { agent_id: 'general_translation', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] },
    passCode: 1211,
  },
  conversation: {
    name: 'agents.conversation',
    url: '/v1/agents/conversation',
    body: { agent_id: 'general_translation', conversation_id: 'conv-123456' },
    passCode: 1233,
  },
  reader: {
    name: 'reader',
    url: '/paas/v4/reader',
    body: { url: 'https://example.com/page' },
    passCode: 1211,
  },
  webSearch: {
    name: 'web_search',
    url: '/paas/v4/web_search',
    body: { search_engine: 'search-prime', search_query: 'fastify typebox' },
    passCode: 1211,
  },
} as const satisfies Record<string, OperationExample>;

/** Copies an example body and applies changes; a change to `undefined` removes the field. */
export function withFields(base: Body, changes: Record<string, Json | undefined>): Body {
  const out: Body = structuredClone(base);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** The error body of decisions.md §2: flat `code`/`message` plus the nested `error`. */
export function expectErrorBody(res: Answer, code: number): void {
  expect(res.body['code'], JSON.stringify(res.body)).toBe(code);
  expect(typeof res.body['message']).toBe('string');
  expect(res.body['error']).toEqual({ code: String(code), message: res.body['message'] });
  expect(res.headers['content-type']).toBe(JSON_CONTENT_TYPE);
}

/** A refused request: 400 with the code, and a message that names the field. */
export function expectRejected(res: Answer, code: 1210 | 1211 | 1213 | 1214, field: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expectErrorBody(res, code);
  expect(res.body['message']).toContain(field);
  expect(res.headers['x-should-retry']).toBe('false');
}

/** Validation passed: the operation answered that its engine is not configured (or 1233 for lookups). */
export function expectAccepted(res: Answer, passCode: 1211 | 1233 = 1211): void {
  expect(res.body['code'], JSON.stringify(res.body)).toBe(passCode);
  if (passCode === 1211) {
    expect(res.status).toBe(400);
    expect(res.body['message']).toContain('is not configured');
  } else {
    expect(res.status).toBe(404);
  }
}

export const repeat = (n: number, ch = 'a'): string => ch.repeat(n);

export const functionTool = (name: string, extra: Body = {}): Body => ({
  type: 'function',
  function: { name, description: `Calls ${name}`, parameters: { type: 'object', properties: {} } },
  ...extra,
});
