import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RecordedRequest, ReplayServer, type Reply } from '../engines/openai-compatible/replay-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * What Codex CLI 0.171.0 (`codex exec`, `wire_api = "responses"`) sends, replayed byte for byte
 * with its headers, as captured from real runs (each fixture is a body formatted; compact JSON of
 * it is the bytes Codex sent): the first request of a turn, and, from a shorter configuration
 * (README, "Codex"), the request that gives a call's output back. The reply is read as
 * Codex reads it: named SSE events, a function call it can run, then `response.completed`.
 */

const MODEL = 'gen-4.6';
const fixture = (name: string) =>
  JSON.stringify(JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')));
/** Codex's own headers on that request (the key is the test's). */
const CODEX_HEADERS = {
  accept: 'text/event-stream',
  'content-type': 'application/json',
  originator: 'codex_exec',
  'user-agent': 'codex_exec/0.171.0 (Debian 12.0.0; x86_64) xterm (codex_exec; 0.171.0)',
  'x-codex-beta-features': 'remote_compaction_v2',
  'x-codex-window-id': '01a24479-20ec-7972-8fed-7641df43a8e2:0',
  'x-client-request-id': '01a24479-20ec-7972-8fed-7641df43a8e2',
  'session-id': '01a24479-20ec-7972-8fed-7641df43a8e2',
  'thread-id': '01a24479-20ec-7972-8fed-7641df43a8e2',
};
const ARGS = JSON.stringify({ cmd: 'ls' });

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-7',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'Qwen/Qwen3-8B',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;
/** vLLM's shape of one streamed call of Codex's `exec_command`. */
const execCall: Reply = {
  pieces: [
    chunk({ role: 'assistant', content: '' }),
    chunk({
      tool_calls: [
        {
          index: 0,
          id: 'chatcmpl-tool-1',
          type: 'function',
          function: { name: 'exec_command', arguments: '' },
        },
      ],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: ARGS.slice(0, 5) } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: ARGS.slice(5) } }] }),
    chunk({}, 'tool_calls'),
    `data: ${JSON.stringify({ id: 'chatcmpl-7', object: 'chat.completion.chunk', created: 1, model: 'Qwen/Qwen3-8B', choices: [], usage: { prompt_tokens: 9000, completion_tokens: 12, total_tokens: 9012 } })}\n\n`,
    'data: [DONE]\n\n',
  ],
};

interface Event {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}

/** Named SSE events, checked frame by frame as Codex's parser takes them. */
function eventsOf(text: string): Event[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const lines = frame.split('\n');
      const name = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
      if (name === undefined || data === undefined) throw new Error(`frame without event or data: ${frame}`);
      const event = JSON.parse(data) as Event;
      expect(event.type).toBe(name);
      return event;
    });
}

/** A plain answer in vLLM's framing. */
const answer: Reply = {
  pieces: [
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: 'The tool answered.' }),
    chunk({}, 'stop'),
    `data: ${JSON.stringify({ id: 'chatcmpl-7', object: 'chat.completion.chunk', created: 1, model: 'Qwen/Qwen3-8B', choices: [], usage: { prompt_tokens: 2100, completion_tokens: 4, total_tokens: 2104 } })}\n\n`,
    'data: [DONE]\n\n',
  ],
};

let reply: Reply = execCall;
let upstream: ReplayServer;
let t: TestApp;
let base: string;
let key: string;

beforeAll(async () => {
  upstream = await ReplayServer.start(() => reply);
  t = await createTestApp({
    models: {
      [MODEL]: {
        deployments: [
          { engine: 'openai-compatible', base_url: `${upstream.url}/v1`, model: 'Qwen/Qwen3-8B', max_context: 65536 },
        ],
      },
    },
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  key = await t.newKey({ endpoints: ['coding'] });
});
afterAll(async () => {
  await t?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

const chatRequests = (): RecordedRequest[] => upstream.requests.filter((r) => r.path.endsWith('/chat/completions'));

describe('Codex 0.171.0, replayed', () => {
  it("its first request of a turn is served: Codex's tools reach the model, a call comes back as Codex reads it", async () => {
    const res = await fetch(`${base}/coding/paas/v4/responses`, {
      method: 'POST',
      headers: { ...CODEX_HEADERS, authorization: `Bearer ${key}` },
      body: fixture('codex-0.171.0-turn-1.json'),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);

    const events = eventsOf(text);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events[0]?.type).toBe('response.created');
    expect(events[1]?.type).toBe('response.in_progress');
    const last = events.at(-1)!;
    expect(last.type).toBe('response.completed');

    // Codex runs what `response.output_item.done` gives it: a function_call with its call_id.
    const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => e['item']);
    const calls = done.filter((item) => (item as { type: string }).type === 'function_call');
    expect(calls).toEqual([
      {
        id: expect.any(String),
        type: 'function_call',
        status: 'completed',
        call_id: expect.stringMatching(/^call_/),
        name: 'exec_command',
        arguments: ARGS,
      },
    ]);
    const deltas = events.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e['delta']);
    expect(deltas.join('')).toBe(ARGS);

    const response = last['response'] as Record<string, unknown>;
    expect(response).toMatchObject({ object: 'response', status: 'completed', model: MODEL, store: false });
    expect(response['id']).toMatch(/^resp_/);
    expect(response['usage']).toMatchObject({
      input_tokens: 9000,
      input_tokens_details: { cached_tokens: expect.any(Number) },
      output_tokens: 12,
      output_tokens_details: { reasoning_tokens: expect.any(Number) },
      total_tokens: 9012,
    });
    expect((response['output'] as unknown[]).filter((o) => (o as { type: string }).type === 'function_call')).toEqual(
      calls,
    );

    // What the model was given: Codex's instructions first, its function tools and its
    // sub-agent tools by their namespaced names.
    const [sent] = chatRequests();
    const messages = sent!.body['messages'] as { role: string; content: unknown }[];
    expect(messages[0]?.role).toBe('system');
    expect(JSON.stringify(messages[0]?.content)).toContain('You are a coding agent running in the Codex CLI');
    expect(messages.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(messages.at(-1)?.content)).toContain('List the files here.');
    const names = (sent!.body['tools'] as { function?: { name: string } }[]).flatMap((tool) =>
      tool.function ? [tool.function.name] : [],
    );
    expect(names).toEqual(
      expect.arrayContaining(['exec_command', 'write_stdin', 'view_image', 'multi_agent_v1__spawn_agent']),
    );
    expect(sent!.body['stream']).toBe(true);
  });

  it("its request that gives the call's output back: the call and its output reach the model, the answer ends the turn", async () => {
    reply = answer;
    const res = await fetch(`${base}/coding/paas/v4/responses`, {
      method: 'POST',
      headers: { ...CODEX_HEADERS, authorization: `Bearer ${key}` },
      body: fixture('codex-0.171.0-turn-2.json'),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const events = eventsOf(text);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const last = events.at(-1)!;
    expect(last.type).toBe('response.completed');
    const response = last['response'] as { status: string; output: unknown[] };
    expect(response.status).toBe('completed');
    expect(response.output).toEqual([
      {
        id: expect.any(String),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'The tool answered.', annotations: [], logprobs: [] }],
      },
    ]);

    const [sent] = chatRequests();
    const messages = sent!.body['messages'] as {
      role: string;
      content: unknown;
      tool_calls?: { id: string; function: { name: string; arguments: string } }[];
      tool_call_id?: string;
    }[];
    const call = messages.at(-2)!;
    expect(call.role).toBe('assistant');
    expect(call.tool_calls).toEqual([
      expect.objectContaining({
        id: 'call_0e437dc03ac199782a4a79dc',
        function: expect.objectContaining({
          name: 'exec_command',
          arguments: expect.stringContaining('"cmd":"Paris"'),
        }),
      }),
    ]);
    expect(messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_0e437dc03ac199782a4a79dc' });
    expect(JSON.stringify(messages.at(-1)!.content)).toContain('failed to parse function arguments');
  });
});
