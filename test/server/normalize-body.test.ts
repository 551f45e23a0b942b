import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { normalizeBody } from '../../src/server/normalize-body.js';

const Schema = Type.Object({
  temperature: Type.Number(),
  max_tokens: Type.Integer(),
  model: Type.String(),
  stop: Type.Array(Type.String()),
  sizes: Type.Array(Type.Integer()),
  nested: Type.Object({ timeout: Type.Integer(), label: Type.String() }),
  either: Type.Union([Type.Number(), Type.String()]),
  messages: Type.Array(Type.Object({ role: Type.String(), content: Type.String() })),
});

describe('normalizeBody', () => {
  it('turns numeric strings into numbers where the schema wants a number, at any depth', () => {
    const body: Record<string, unknown> = {
      temperature: ' 0.5 ',
      max_tokens: '100',
      sizes: ['1', 2, '-3'],
      nested: { timeout: '20', label: '20' },
    };
    normalizeBody(body, Schema);
    expect(body).toEqual({
      temperature: 0.5,
      max_tokens: 100,
      sizes: [1, 2, -3],
      nested: { timeout: 20, label: '20' },
    });
  });

  it('leaves strings that a string field, a union or an unknown key holds, and non-numeric strings', () => {
    const body: Record<string, unknown> = {
      model: '46',
      stop: ['1', '2'],
      either: '7',
      unknown: '8',
      temperature: 'hot',
      max_tokens: '1e3',
    };
    const before = structuredClone(body);
    normalizeBody(body, Schema);
    expect(body).toEqual(before);
  });

  it('drops nulls at the top level and in messages, and keeps objects it does not change as they are', () => {
    const message = { role: 'user', content: 'hi', name: null };
    const body: Record<string, unknown> = { thinking: null, messages: [message], temperature: 1 };
    normalizeBody(body, Schema);
    expect(body).toEqual({ messages: [{ role: 'user', content: 'hi' }], temperature: 1 });
    expect((body['messages'] as unknown[])[0]).toBe(message);
  });

  it('ignores bodies that are not objects', () => {
    for (const body of [null, 'text', 3, [1, '2']]) expect(() => normalizeBody(body, Schema)).not.toThrow();
  });
});
