import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_OPERATIONS } from '../../src/routes/all-operations.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

interface Op {
  responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
}

let t: TestApp;
let paths: Record<string, Record<string, Op>>;
beforeAll(async () => {
  t = await createTestApp();
  paths = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths;
});
afterAll(() => t.close());

const documentedPath = (op: (typeof ALL_OPERATIONS)[number]) =>
  ({ paas: '/paas/v4', agents: '/v1', anthropic: '/anthropic/v1' })[op.base] + op.path.replace(/:(\w+)/g, '{$1}');

describe('/openapi.json documents every reply', () => {
  for (const op of ALL_OPERATIONS) {
    it(`${op.method} ${documentedPath(op)}: the 200 body${op.chunk ? ', the stream chunk' : ''} and the error body`, () => {
      const responses = paths[documentedPath(op)]?.[op.method.toLowerCase()]?.responses ?? {};
      const json = responses['200']?.content?.['application/json']?.schema;
      expect(json?.['properties'], 'a 200 JSON schema with properties').toBeDefined();
      // A stream's event: one object, or one of several named events (the Responses API's).
      const chunk = responses['200']?.content?.['text/event-stream']?.schema;
      if (op.chunk) expect(chunk?.['properties'] ?? chunk?.['oneOf']).toBeDefined();
      // The API's own error body, or the one of the wire the operation speaks (op.errors).
      const errorFields = op.errors
        ? Object.keys(op.errors.reply['properties'] as object)
        : ['code', 'message', 'error'];
      for (const status of ['4XX', '5XX']) {
        const error = responses[status]?.content?.['application/json']?.schema;
        expect(Object.keys((error?.['properties'] as object) ?? {}), status).toEqual(errorFields);
      }
    });
  }
});
