import { expect } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { ERROR_CODES, type ErrorCode } from '../../src/errors/codes.js';
import { anthropicErrorType } from '../../src/server/anthropic-error.js';
import { openAiErrorBody } from '../../src/server/openai-error.js';

/**
 * Error bodies come in the API's own shape (`{code, message, error: {code, message}}`, docs/wire.md,
 * "Errors") or, on the routes of another API's wire, in that API's shape (the Responses API answers
 * OpenAI's `{error: {message, type, param, code}}`). These helpers let the shared suites check
 * every route whichever shape it answers.
 */

type Body = Record<string, unknown>;

/** The body is in OpenAI's shape. */
export const isOpenAiShape = (body: Body): boolean =>
  !('code' in body) && typeof (body['error'] as Body | undefined)?.['type'] === 'string';

/** The body is in Anthropic's shape (`{"type":"error","error":{"type","message"}}`). */
export const isAnthropicShape = (body: Body): boolean => body['type'] === 'error' && !('code' in body);

/**
 * The body says `code` (in OpenAI's shape: the name or number that code goes out as; in Anthropic's:
 * the message ends with it).
 */
export function hasErrorCode(body: Body, code: number): boolean {
  if (isAnthropicShape(body)) return String((body['error'] as Body)['message']).endsWith(`(code ${code})`);
  if (isOpenAiShape(body)) {
    const expected = openAiErrorBody(new ApiError(code as ErrorCode, 'x')).error.code;
    return (body['error'] as Body)['code'] === expected;
  }
  return body['code'] === code;
}

/** The body is a well-formed error answer to `status`, in either shape; its message is returned. */
export function expectErrorShape(body: Body, status: number, context = ''): string {
  if (isAnthropicShape(body)) {
    expect(Object.keys(body).sort(), context).toEqual(['error', 'type']);
    const error = body['error'] as Body;
    expect(Object.keys(error).sort(), context).toEqual(['message', 'type']);
    expect(error['type'], context).toBe(anthropicErrorType(status));
    const message = String(error['message']);
    const code = Number(/\(code (\d+)\)$/.exec(message)?.[1]);
    expect(ERROR_CODES[code as ErrorCode]?.status, context).toBe(status);
    return message;
  }
  if (isOpenAiShape(body)) {
    expect(Object.keys(body), context).toEqual(['error']);
    const error = body['error'] as Body;
    expect(Object.keys(error).sort(), context).toEqual(['code', 'message', 'param', 'type']);
    expect(typeof error['message'], context).toBe('string');
    expect((error['message'] as string).length, context).toBeGreaterThan(0);
    expect(error['param'] === null || typeof error['param'] === 'string', context).toBe(true);
    expect(typeof error['code'], context).toBe('string');
    const numeric = Number(error['code']);
    if (Number.isInteger(numeric)) expect(statusesOf(numeric), context).toContain(status);
    return error['message'] as string;
  }
  expect(Number.isInteger(body['code']), context).toBe(true);
  expect(typeof body['message'], context).toBe('string');
  expect((body['message'] as string).length, context).toBeGreaterThan(0);
  expect(body['error'], context).toEqual({ code: String(body['code']), message: body['message'] });
  expect(statusesOf(body['code'] as number), context).toContain(status);
  return body['message'] as string;
}

/** A 1210 is also a 413 (over the route's body limit) or a 415 (a content type the route does not take). */
function statusesOf(code: number): number[] {
  const own = ERROR_CODES[code as ErrorCode]?.status;
  return code === 1210 ? [400, 413, 415] : own === undefined ? [] : [own];
}

/** The body answers `code` with its status, in the route's shape. */
export function expectErrorCode(body: Body, status: number, code: number): void {
  expectErrorShape(body, status, JSON.stringify(body));
  expect(hasErrorCode(body, code), JSON.stringify(body)).toBe(true);
}
