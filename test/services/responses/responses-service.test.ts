import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEngine, ChatStreamPart, ChatUsage } from '../../../src/engines/chat/types.js';
import { upstreamFailure } from '../../../src/errors/errors.js';
import { ScriptedChatEngine } from '../../helpers/scripted-chat-engine.js';
import { eventsOf, responsesOn } from './fixture.js';

const USAGE: ChatUsage = { promptTokens: 40, completionTokens: 12, cachedTokens: 30, reasoningTokens: 5 };
const finish = (reason: 'stop' | 'tool_calls' | 'length' = 'stop'): ChatStreamPart => ({
  type: 'finish',
  reason,
  usage: USAGE,
});

/** Two calls made at once, their argument pieces interleaved (as an upstream may send them). */
const TWO_CALLS: ChatStreamPart[] = [
  { type: 'tool-call-start', index: 0, id: 'call_000000000000000000000001', name: 'get_weather' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city": "' },
  { type: 'tool-call-start', index: 1, id: 'call_000000000000000000000002', name: 'get_time' },
  { type: 'tool-call-delta', index: 1, argumentsDelta: '{"timezone": "Asia/' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '北京"}' },
  { type: 'tool-call-delta', index: 1, argumentsDelta: 'Shanghai"}' },
  { type: 'tool-call-end', index: 0 },
  { type: 'tool-call-end', index: 1 },
  finish('tool_calls'),
];

let close: (() => void) | undefined;
afterEach(() => close?.());
const on = (engine: ScriptedChatEngine) => {
  const r = responsesOn(engine);
  close = r.close;
  return r;
};

describe('ResponsesService: whole replies', () => {
  it('a text reply: one message, usage with cached and reasoning tokens, the echo of the request', async () => {
    const r = on(new ScriptedChatEngine().says(['Hello', ' there.'], 'stop', USAGE));
    const response = await r.complete({ instructions: 'Be brief.', metadata: { a: 'b' }, store: false });
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      error: null,
      incomplete_details: null,
      instructions: 'Be brief.',
      model: 'gen-4.6',
      store: false,
      metadata: { a: 'b' },
      usage: {
        input_tokens: 40,
        input_tokens_details: { cached_tokens: 30 },
        output_tokens: 12,
        output_tokens_details: { reasoning_tokens: 5 },
        total_tokens: 52,
      },
    });
    expect(response.id).toBe('resp_202601010000000000000000000001');
    expect(response.output).toEqual([
      {
        id: expect.stringMatching(/^msg_[0-9a-f]{24}$/),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Hello there.' }],
      },
    ]);
  });

  it('two parallel calls keep every argument piece, in the order the calls began', async () => {
    const r = on(new ScriptedChatEngine().replies(TWO_CALLS));
    const response = await r.complete({
      tools: [
        { type: 'function', name: 'get_weather' },
        { type: 'function', name: 'get_time' },
      ],
    });
    expect(
      response.output.map((o) => (o.type === 'function_call' ? [o.call_id, o.name, o.arguments, o.status] : o.type)),
    ).toEqual([
      ['call_000000000000000000000001', 'get_weather', '{"city": "北京"}', 'completed'],
      ['call_000000000000000000000002', 'get_time', '{"timezone": "Asia/Shanghai"}', 'completed'],
    ]);
  });

  it('thinking goes into a reasoning item: as its summary when asked, as its content otherwise', async () => {
    const parts: ChatStreamPart[] = [
      { type: 'reasoning-delta', text: 'Let me ' },
      { type: 'reasoning-delta', text: 'think.' },
      { type: 'text-delta', text: 'Hi.' },
      finish(),
    ];
    const r = on(new ScriptedChatEngine().replies(parts).replies(parts));
    const summarised = await r.complete({ reasoning: { effort: 'high', summary: 'auto' } });
    expect(summarised.output[0]).toMatchObject({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Let me think.' }],
    });
    expect(summarised.output[0]).not.toHaveProperty('content');
    expect(summarised.reasoning).toEqual({ effort: 'high', summary: 'auto' });
    const raw = await r.complete({});
    expect(raw.output[0]).toMatchObject({
      type: 'reasoning',
      summary: [],
      content: [{ type: 'reasoning_text', text: 'Let me think.' }],
    });
    expect(raw.output[1]).toMatchObject({ type: 'message', content: [{ text: 'Hi.' }] });
  });

  it('a reply cut by max_output_tokens is incomplete, and so is its last item', async () => {
    const r = on(new ScriptedChatEngine().says(['Hello'], 'length'));
    const response = await r.complete({ max_output_tokens: 1 });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
  });

  it('a custom tool call goes back as custom_tool_call with its free-form input', async () => {
    const r = on(
      new ScriptedChatEngine().replies([
        { type: 'tool-call-start', index: 0, id: 'call_000000000000000000000003', name: 'apply_patch' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '{"input": "*** Begin Patch\\n' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '*** End Patch"}' },
        { type: 'tool-call-end', index: 0 },
        finish('tool_calls'),
      ]),
    );
    const response = await r.complete({ tools: [{ type: 'custom', name: 'apply_patch' }] });
    expect(response.output[0]).toMatchObject({
      type: 'custom_tool_call',
      call_id: 'call_000000000000000000000003',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** End Patch',
    });
  });

  it('a call of a namespaced tool goes back with its own name and its namespace, and continues', async () => {
    const r = on(
      new ScriptedChatEngine().replies([
        { type: 'tool-call-start', index: 0, id: 'call_000000000000000000000004', name: 'agents__spawn' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
        { type: 'tool-call-end', index: 0 },
        finish('tool_calls'),
      ]),
    );
    const tools = [
      { type: 'namespace' as const, name: 'agents', tools: [{ type: 'function' as const, name: 'spawn' }] },
    ];
    const response = await r.complete({ tools, store: true });
    expect(response.output[0]).toMatchObject({
      type: 'function_call',
      call_id: 'call_000000000000000000000004',
      name: 'spawn',
      namespace: 'agents',
      arguments: '{}',
    });
  });

  it('passes the turn options to the engine', async () => {
    const engine = new ScriptedChatEngine().says('{}');
    const r = on(engine);
    await r.complete({
      tools: [{ type: 'function', name: 'w' }],
      tool_choice: { type: 'function', name: 'w' },
      parallel_tool_calls: false,
      text: { format: { type: 'json_schema', name: 'x', schema: { type: 'object' } } },
    });
    expect(engine.requests[0]).toMatchObject({
      toolChoice: { name: 'w' },
      parallelToolCalls: false,
      responseFormat: 'json_object',
      jsonSchema: { type: 'object' },
    });
  });

  it('a failure mid-reply is the upstream failure (no half response)', async () => {
    const r = on(new ScriptedChatEngine().fails(['Hel'], upstreamFailure('lost')));
    await expect(r.complete({})).rejects.toMatchObject({ code: 1234 });
  });
});

describe('ResponsesService: stored responses', () => {
  it('store keeps the response for its key only; previous_response_id continues it; delete removes it', async () => {
    const engine = new ScriptedChatEngine()
      .replies([
        { type: 'tool-call-start', index: 0, id: 'call_000000000000000000000009', name: 'w' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
        { type: 'tool-call-end', index: 0 },
        finish('tool_calls'),
      ])
      .says('Sunny.');
    const r = on(engine);
    const first = await r.complete({
      input: 'Weather?',
      instructions: 'Be brief.',
      tools: [{ type: 'function', name: 'w' }],
    });
    expect(await r.service.get('key-a', first.id)).toEqual(first);
    await expect(r.service.get('key-b', first.id)).rejects.toMatchObject({ code: 1233 });

    const second = await r.complete({
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: 'call_000000000000000000000009', output: 'sunny' }],
      tools: [{ type: 'function', name: 'w' }],
    });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.output[0]).toMatchObject({ type: 'message', content: [{ text: 'Sunny.' }] });
    // Instructions are not carried over; the conversation is.
    expect(engine.requests[1]!.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        tool_calls: [
          { id: 'call_000000000000000000000009', type: 'function', function: { name: 'w', arguments: '{}' } },
        ],
      },
      { role: 'tool', content: 'sunny', tool_call_id: 'call_000000000000000000000009' },
    ]);
    await expect(r.complete({ previous_response_id: first.id }, 'key-b')).rejects.toMatchObject({
      code: 1214,
      field: 'previous_response_id',
    });
    await expect(r.service.delete('key-b', first.id)).rejects.toMatchObject({ code: 1233 });
    await r.service.delete('key-a', first.id);
    await expect(r.service.get('key-a', first.id)).rejects.toMatchObject({ code: 1233 });
  });

  it('store: false keeps nothing', async () => {
    const r = on(new ScriptedChatEngine().says('Hi.'));
    const response = await r.complete({ store: false });
    await expect(r.service.get('key-a', response.id)).rejects.toMatchObject({ code: 1233 });
  });
});

describe('ResponsesService: the stream', () => {
  it('a text reply: the event grammar, numbered from 0, framed with the event name', async () => {
    const r = on(new ScriptedChatEngine().says(['Hel', 'lo.'], 'stop', USAGE));
    const events = eventsOf(await r.stream({ store: false }));
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events[0]!['response']).toMatchObject({ status: 'in_progress', output: [], usage: null });
    const done = events.at(-1)!['response'] as { status: string; output: unknown[]; usage: { total_tokens: number } };
    expect(done.status).toBe('completed');
    expect(done.usage.total_tokens).toBe(52);
    expect(events[6]).toMatchObject({ text: 'Hello.', output_index: 0, content_index: 0 });
    expect(events[8]!['item']).toEqual(done.output[0]);
  });

  it('two parallel calls streamed: each call its own item, deltas by output_index, whole arguments at .done', async () => {
    const r = on(new ScriptedChatEngine().replies(TWO_CALLS));
    const events = eventsOf(
      await r.stream({
        tools: [
          { type: 'function', name: 'get_weather' },
          { type: 'function', name: 'get_time' },
        ],
      }),
    );
    const joined = (index: number) =>
      events
        .filter((e) => e.type === 'response.function_call_arguments.delta' && e['output_index'] === index)
        .map((e) => e['delta'])
        .join('');
    expect(joined(0)).toBe('{"city": "北京"}');
    expect(joined(1)).toBe('{"timezone": "Asia/Shanghai"}');
    const done = events.filter((e) => e.type === 'response.function_call_arguments.done');
    expect(done.map((e) => [e['output_index'], e['name'], e['arguments']])).toEqual([
      [0, 'get_weather', '{"city": "北京"}'],
      [1, 'get_time', '{"timezone": "Asia/Shanghai"}'],
    ]);
    const items = events.filter((e) => e.type === 'response.output_item.done').map((e) => e['item']);
    const final = events.at(-1)!['response'] as { output: unknown[] };
    expect(final.output).toEqual(items);
  });

  it('a failure after the first part: the items end incomplete, then error and response.failed', async () => {
    const logged: unknown[] = [];
    const r = on(new ScriptedChatEngine().fails(['Hel'], upstreamFailure('the upstream closed')));
    const events = eventsOf(await r.stream({}, 'key-a', logged));
    expect(events.slice(-5).map((e) => e.type)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'error',
      'response.failed',
    ]);
    expect(events.at(-2)).toMatchObject({ code: 'server_error', message: 'the upstream closed', param: null });
    expect(events.at(-1)!['response']).toMatchObject({
      status: 'failed',
      error: { code: 'server_error', message: 'the upstream closed' },
      output: [{ type: 'message', status: 'incomplete', content: [{ text: 'Hel' }] }],
    });
    expect(logged).toHaveLength(1);
  });

  it('a failure before the first part is thrown: the route answers it as an error reply', async () => {
    const r = on(new ScriptedChatEngine().fails([], upstreamFailure('down')));
    await expect(r.stream({})).rejects.toMatchObject({ code: 1234 });
  });

  it('a model slow to begin: response.created at once, then keepalive while silent, numbered in order', async () => {
    const engine = new ScriptedChatEngine();
    const slow: ChatEngine = {
      capabilities: engine.capabilities,
      countTokens: engine.countTokens.bind(engine),
      close: async () => {},
      async *generate(): AsyncGenerator<ChatStreamPart> {
        // A long prompt being read, then a pause mid-reply.
        await new Promise((r) => setTimeout(r, 150));
        yield { type: 'text-delta', text: 'Hi' };
        await new Promise((r) => setTimeout(r, 150));
        yield finish();
      },
    };
    const r = responsesOn(slow);
    close = r.close;
    const events = eventsOf(await r.stream({}, 'key-a', [], 40));
    expect(events.slice(0, 3).map((e) => e.type)).toEqual(['response.created', 'response.in_progress', 'keepalive']);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const firstText = events.findIndex((e) => e.type === 'response.output_text.delta');
    const afterText = events.slice(firstText + 1);
    expect(afterText.findIndex((e) => e.type === 'keepalive')).toBeGreaterThanOrEqual(0);
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { status: 'completed' } });
    expect(events.filter((e) => e.type !== 'keepalive').map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('a failure after keepalive began is response.failed in the stream, not an error reply', async () => {
    const engine = new ScriptedChatEngine();
    const failing: ChatEngine = {
      capabilities: engine.capabilities,
      countTokens: engine.countTokens.bind(engine),
      close: async () => {},
      async *generate(): AsyncGenerator<ChatStreamPart> {
        await new Promise((r) => setTimeout(r, 120));
        throw upstreamFailure('the upstream closed');
      },
    };
    const r = responsesOn(failing);
    close = r.close;
    const logged: unknown[] = [];
    const events = eventsOf(await r.stream({}, 'key-a', logged, 40));
    expect(events[0]!.type).toBe('response.created');
    expect(events.slice(-2).map((e) => e.type)).toEqual(['error', 'response.failed']);
    expect(events.at(-1)!['response']).toMatchObject({ status: 'failed', error: { message: 'the upstream closed' } });
    expect(logged).toHaveLength(1);
  });

  it('a reply cut short ends with response.incomplete', async () => {
    const r = on(new ScriptedChatEngine().says(['Hel'], 'length'));
    const events = eventsOf(await r.stream({}));
    expect(events.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { incomplete_details: { reason: 'max_output_tokens' } },
    });
  });

  it('a streamed response is stored as it ended', async () => {
    const r = on(new ScriptedChatEngine().says('Hi.'));
    const events = eventsOf(await r.stream({}));
    const final = events.at(-1)!['response'] as { id: string };
    expect(await r.service.get('key-a', final.id)).toEqual(final);
  });
});
