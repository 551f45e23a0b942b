import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { EXAMPLES, expectAccepted, expectRejected, withoutEngines } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(withoutEngines());
});
afterAll(() => t.close());

/** A schema `depth` objects deep, written as text: no recursion on this side. */
const deepSchema = (depth: number) =>
  '{"type":"object","properties":{"a":'.repeat(depth - 1) + '{"type":"string"}' + '}}'.repeat(depth - 1);
const body = (example: { body: object }, tools: string) =>
  `${JSON.stringify(example.body).slice(0, -1)},"tools":${tools}}`;
const chatTool = (depth: number) =>
  `[{"type":"function","function":{"name":"f","description":"d","parameters":${deepSchema(depth)}}}]`;

async function send(url: string, payload: string) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown>, headers: res.headers };
}

describe('tool parameter schemas nested 3,000 deep', () => {
  it.each([
    ['chat', EXAMPLES.chat],
    ['tokenizer', EXAMPLES.tokenizer],
  ])('%s: 1214 naming the field and the depth, not a 500', async (_name, example) => {
    const res = await send(example.url, body(example, chatTool(3000)));
    expectRejected(res, 1214, 'Invalid tools[0].function.parameters: a schema may nest at most 32 levels deep');
  });

  it('responses: the same rule on its flat tools', async () => {
    const tool = `[{"type":"function","name":"f","parameters":${deepSchema(3000)}}]`;
    const res = await send(EXAMPLES.responses.url, body(EXAMPLES.responses, tool));
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('tools[0].parameters: a schema may nest at most 32 levels deep');
  });

  it('a schema of a realistic depth passes validation', async () => {
    // The schema's own object levels count: 16 nested properties make 32 levels.
    expectAccepted(await send(EXAMPLES.chat.url, body(EXAMPLES.chat, chatTool(16))));
  });
});
