import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { EXAMPLES, expectAccepted, expectRejected, messageOf, withoutEngines } from './support.js';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(withoutEngines());
  // Anthropic's endpoint is the coding endpoint's.
  key = await t.newKey({ endpoints: ['general', 'coding'] });
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
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown>, headers: res.headers };
}

describe('tool parameter schemas nested deeper than 32 levels', () => {
  it.each([
    ['chat', EXAMPLES.chat],
    ['tokenizer', EXAMPLES.tokenizer],
  ])('%s: 1214 naming the field and the depth, not a 500', async (_name, example) => {
    const res = await send(example.url, body(example, chatTool(20)));
    expectRejected(res, 1214, 'Invalid tools[0].function.parameters: a schema may nest at most 32 levels deep');
  });

  it.each([
    ['chat', EXAMPLES.chat],
    ['tokenizer', EXAMPLES.tokenizer],
  ])('%s: 3,000 levels are refused by the body bound, naming the field', async (_name, example) => {
    const res = await send(example.url, body(example, chatTool(3000)));
    expectRejected(res, 1214, 'Invalid tools[0].function.parameters.properties.a...');
    expect(messageOf(res.body)).toContain('a request body may nest at most 64 levels deep');
  });

  it('responses: the same rule on its flat tools', async () => {
    const tool = `[{"type":"function","name":"f","parameters":${deepSchema(20)}}]`;
    const res = await send(EXAMPLES.responses.url, body(EXAMPLES.responses, tool));
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('tools[0].parameters: a schema may nest at most 32 levels deep');
  });

  it('a schema of a realistic depth passes validation', async () => {
    // The schema's own object levels count: 16 nested properties make 32 levels.
    expectAccepted(await send(EXAMPLES.chat.url, body(EXAMPLES.chat, chatTool(16))));
  });
});

/** An Anthropic-shaped 400 (`invalid_request_error`) whose message names the field and the rule. */
function expectAnthropicRefusal(res: Awaited<ReturnType<typeof send>>, text: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body['type']).toBe('error');
  expect((res.body['error'] as Record<string, unknown>)['type']).toBe('invalid_request_error');
  expect(messageOf(res.body)).toContain(text);
}

describe("Anthropic's input_schema", () => {
  const tool = (depth: number) => `[{"name":"f","description":"d","input_schema":${deepSchema(depth)}}]`;
  it.each([
    ['messages', 3000, EXAMPLES.anthropicMessages],
    ['messages', 200_000, EXAMPLES.anthropicMessages],
    ['count_tokens', 3000, EXAMPLES.anthropicCountTokens],
    ['count_tokens', 200_000, EXAMPLES.anthropicCountTokens],
  ])("%s: %i levels are a 400 in Anthropic's shape naming the field, not a 500", async (_name, depth, example) => {
    const res = await send(example.url, body(example, tool(depth)));
    // Its own levels are twice the schema's (`properties` between them).
    const rule = depth > 32 ? 'a request body may nest at most 64 levels deep' : 'a schema may nest at most 32';
    expectAnthropicRefusal(
      res,
      depth > 64 ? 'Invalid tools[0].input_schema' : `Invalid tools[0].input_schema: ${rule}`,
    );
    expect(messageOf(res.body)).toContain(rule);
  });

  it('a schema of a realistic depth passes validation', async () => {
    const res = await send(EXAMPLES.anthropicMessages.url, body(EXAMPLES.anthropicMessages, tool(16)));
    expectAccepted(res);
  });
});

describe('other schemas a body carries', () => {
  it("responses: text.format's json_schema", async () => {
    const example = EXAMPLES.responses;
    const text = `{"format":{"type":"json_schema","name":"reply","schema":${deepSchema(20)}}}`;
    const res = await send(example.url, `${JSON.stringify(example.body).slice(0, -1)},"text":${text}}`);
    expect(res.status).toBe(400);
    expect(messageOf(res.body)).toContain('text.format.schema: a schema may nest at most 32 levels deep');
  });

  it("responses: a namespace's function tools", async () => {
    const tool = `[{"type":"namespace","name":"ns","tools":[{"type":"function","name":"f","parameters":${deepSchema(20)}}]}]`;
    const res = await send(EXAMPLES.responses.url, body(EXAMPLES.responses, tool));
    expect(res.status).toBe(400);
    expect(messageOf(res.body)).toContain('tools[0].tools[0].parameters: a schema may nest at most 32 levels deep');
  });
});

describe('any JSON body nested deeper than 64 levels', () => {
  const deep = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

  it("chat: an assistant tool call's arguments 200,000 deep are a 1214 naming the field", async () => {
    const call = `{"id":"c1","type":"function","function":{"name":"f","arguments":${deep(200_000)}}}`;
    const messages = `[{"role":"assistant","content":"","tool_calls":[${call}]},{"role":"tool","tool_call_id":"c1","content":"ok"}]`;
    const res = await send(EXAMPLES.chat.url, `{"model":"gen-4.6","messages":${messages}}`);
    expectRejected(
      res,
      1214,
      'Invalid messages[0].tool_calls[0].function.arguments...: a request body may nest at most 64 levels deep',
    );
  });

  it('an MCP tool call (a route with no body schema of its own) answers the same', async () => {
    const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"web_search_prime","arguments":${deep(3000)}}}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/mcp/web_search_prime/mcp',
      payload: call,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${t.key}`,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('a request body may nest at most 64 levels deep');
  });

  it('a body 64 levels deep is not refused for its depth', async () => {
    const args = deep(58);
    const call = `{"id":"c1","type":"function","function":{"name":"f","arguments":${args}}}`;
    const messages = `[{"role":"assistant","content":"","tool_calls":[${call}]},{"role":"user","content":"go"}]`;
    expectAccepted(await send(EXAMPLES.chat.url, `{"model":"gen-4.6","messages":${messages}}`));
  });
});
