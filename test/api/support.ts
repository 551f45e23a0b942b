import { expect } from 'vitest';
import { ConfigSchema } from '../../src/config/schema.js';
import { expectErrorCode, hasErrorCode, isAnthropicShape, isOpenAiShape } from '../helpers/error-shapes.js';
import type { TestApp } from '../helpers/test-app.js';

/** An error body's message, in the API's shape or OpenAI's. */
export const messageOf = (body: Record<string, unknown>): string =>
  (isOpenAiShape(body) || isAnthropicShape(body)
    ? (body['error'] as Record<string, unknown>)['message']
    : body['message']) as string;

/**
 * Config overrides for an app with no engine: every valid request then answers 1211 "not
 * configured", which is how these suites see that validation passed. Where the config has an
 * embedded default model (served for every unmapped chat code), it is switched off.
 */
export function withoutEngines(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const props = ConfigSchema.properties as Record<string, unknown>;
  const embedded = 'embedded' in props ? { embedded: { default_model: '' } } : {};
  // Where the reader is wired, it may reach the loopback address of the reader example.
  const reader = 'reader' in props ? { reader: { allow_hosts: ['127.0.0.1'] } } : {};
  return { ...embedded, ...reader, ...overrides };
}

/** What `TestApp.post` answers. */
export type Answer = Awaited<ReturnType<TestApp['post']>>;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Body = { [key: string]: Json };

export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';

/** Statuses of the answers that show validation passed. */
export const PASS_STATUS = { 200: 200, 1211: 400, 1233: 404, 1234: 502 } as const;
export type PassCode = keyof typeof PASS_STATUS;

/** One valid example body per operation, and the answer that shows validation passed. */
export interface OperationExample {
  name: string;
  url: string;
  body: Body;
  /**
   * What a valid request answers here, none of them a validation error: engines are not
   * configured in tests (1211), lookups find nothing (1233), where the reader is wired its fetch
   * of the example's closed local port fails (1234), and a wired local search index answers (200).
   */
  passCodes: readonly PassCode[];
}

export const EXAMPLES = {
  tokenizer: {
    name: 'tokenizer',
    url: '/paas/v4/tokenizer',
    body: { model: 'gen-4.6', messages: [{ role: 'user', content: 'Hello' }] },
    passCodes: [1211],
  },
  chat: {
    name: 'chat.completions',
    url: '/paas/v4/chat/completions',
    body: { model: 'gen-4.6', messages: [{ role: 'user', content: 'Hello' }] },
    passCodes: [1211],
  },
  images: {
    name: 'images.generations',
    url: '/paas/v4/images/generations',
    body: { model: 'gen-image', prompt: 'A cat on a mat' },
    passCodes: [1211],
  },
  asyncImages: {
    name: 'async.images.generations',
    url: '/paas/v4/async/images/generations',
    body: { model: 'gen-image', prompt: 'A cat on a mat' },
    passCodes: [1211],
  },
  agents: {
    name: 'agents',
    url: '/v1/agents',
    body: { agent_id: 'general_translation', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] },
    passCodes: [1211],
  },
  conversation: {
    name: 'agents.conversation',
    url: '/v1/agents/conversation',
    body: { agent_id: 'general_translation', conversation_id: 'conv-123456' },
    passCodes: [1233],
  },
  reader: {
    name: 'reader',
    url: '/paas/v4/reader',
    // Port 9 (discard) on loopback: closed, so a wired reader fails at once, offline (see withoutEngines).
    body: { url: 'http://127.0.0.1:9/page' },
    passCodes: [1211, 1234],
  },
  responses: {
    name: 'responses.create',
    url: '/paas/v4/responses',
    body: { model: 'gen-4.6', input: 'Hello' },
    passCodes: [1211],
  },
  responsesV1: {
    name: 'responses.create.v1',
    url: '/v1/responses',
    body: { model: 'gen-4.6', input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hello' }] }] },
    passCodes: [1211],
  },
  anthropicMessages: {
    name: 'anthropic.messages',
    url: '/anthropic/v1/messages',
    body: { model: 'gen-4.6', max_tokens: 16, messages: [{ role: 'user', content: 'Hello' }] },
    passCodes: [1211],
  },
  anthropicCountTokens: {
    name: 'anthropic.messages.count_tokens',
    url: '/anthropic/v1/messages/count_tokens',
    body: { model: 'gen-4.6', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] },
    passCodes: [1211],
  },
  webSearch: {
    name: 'web_search',
    url: '/paas/v4/web_search',
    body: { search_engine: 'search-prime', search_query: 'fastify typebox' },
    passCodes: [1211, 200],
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

/** The error body of docs/wire.md, "Errors": flat `code`/`message` plus the nested `error`. */
export function expectErrorBody(res: Answer, code: number): void {
  expectErrorCode(res.body, res.status, code);
  expect(res.headers['content-type']).toBe(JSON_CONTENT_TYPE);
}

/** A refused request: 400 with the code, and a message that names the field. */
export function expectRejected(
  res: Answer,
  code: 1210 | 1211 | 1213 | 1214,
  field: string,
  status: 400 | 413 | 415 = 400,
): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expectErrorBody(res, code);
  expect(messageOf(res.body)).toContain(field);
  expect(res.headers['x-should-retry']).toBe('false');
}

/**
 * Validation passed: the operation answered that its engine is not configured, or one of the other
 * answers of `passCodes` that only a request past validation can get.
 */
export function expectAccepted(res: Answer, passCodes: readonly PassCode[] = [1211]): void {
  if (res.status === 200 && passCodes.includes(200)) return;
  const code = passCodes.find((c) => c !== 200 && hasErrorCode(res.body, c));
  expect(code, JSON.stringify(res.body)).toBeDefined();
  // Anthropic's and OpenAI's wires (their error shapes have no flat `code`) answer an unknown model 404.
  const foreign = typeof (res.body as { code?: unknown } | undefined)?.code !== 'number';
  expect(res.status).toBe(code === 1211 && foreign ? 404 : PASS_STATUS[code as PassCode]);
  if (code === 1211) expect(messageOf(res.body)).toContain('is not configured');
}

export const repeat = (n: number, ch = 'a'): string => ch.repeat(n);

export const functionTool = (name: string, extra: Body = {}): Body => ({
  type: 'function',
  function: { name, description: `Calls ${name}`, parameters: { type: 'object', properties: {} } },
  ...extra,
});
