import { describe, expect, it } from 'vitest';
import {
  ChunkMapper,
  mapFinishReason,
  mapUsage,
  UpstreamReportedError,
} from '../../../src/engines/chat/openai-compatible/chunk-mapper.js';
import type { WireChoice, WireChunk } from '../../../src/engines/chat/openai-compatible/wire.js';
import type { ChatStreamPart } from '../../../src/engines/chat/types.js';

function run(chunks: WireChunk[], generateIds = false): ChatStreamPart[] {
  const mapper = new ChunkMapper(generateIds);
  const out: ChatStreamPart[] = [];
  for (const chunk of chunks) mapper.chunk(chunk, out);
  mapper.finish(out);
  return out;
}
const delta = (choice: WireChoice): WireChunk => ({ choices: [choice] });

describe('finish reasons and usage', () => {
  it('maps the OpenAI reasons to ours', () => {
    expect(mapFinishReason('stop', false)).toBe('stop');
    expect(mapFinishReason('length', false)).toBe('length');
    expect(mapFinishReason('tool_calls', true)).toBe('tool_calls');
    expect(mapFinishReason('function_call', true)).toBe('tool_calls');
    expect(mapFinishReason('content_filter', false)).toBe('sensitive');
    expect(mapFinishReason('eos', false)).toBe('stop');
    expect(mapFinishReason('abort', false)).toBe('stop');
    expect(mapFinishReason('stop', true)).toBe('tool_calls');
  });

  it('reads cached and reasoning tokens, and never lets a bad number through', () => {
    expect(
      mapUsage({
        prompt_tokens: 100,
        completion_tokens: 50,
        prompt_tokens_details: { cached_tokens: 64 },
        completion_tokens_details: { reasoning_tokens: 30 },
      }),
    ).toEqual({ promptTokens: 100, completionTokens: 50, cachedTokens: 64, reasoningTokens: 30 });
    expect(mapUsage({ prompt_tokens: -3, completion_tokens: Number.NaN, prompt_tokens_details: null })).toEqual({
      promptTokens: 0,
      completionTokens: 0,
      cachedTokens: 0,
      reasoningTokens: 0,
    });
    expect(mapUsage(undefined).promptTokens).toBe(0);
  });

  it('takes usage from a chunk that also finishes (llama.cpp server) and ignores other choices', () => {
    const parts = run([
      { choices: [{ index: 1, delta: { content: 'other' } }] },
      {
        choices: [{ index: 0, delta: {}, finish_reason: 'length' }],
        usage: { prompt_tokens: 3, completion_tokens: 2 },
      },
    ]);
    expect(parts).toEqual([
      {
        type: 'finish',
        reason: 'length',
        usage: { promptTokens: 3, completionTokens: 2, cachedTokens: 0, reasoningTokens: 0 },
      },
    ]);
  });
});

describe('text and reasoning', () => {
  it('reads reasoning from reasoning_content or reasoning and skips empty pieces', () => {
    const parts = run([
      delta({ delta: { role: 'assistant', content: '' } }),
      delta({ delta: { reasoning_content: 'a' } }),
      delta({ delta: { reasoning: 'b', content: '' } }),
      delta({ delta: { content: 'c' } }),
      delta({ delta: { content: null }, finish_reason: 'stop' }),
    ]);
    expect(parts.map((p) => p.type)).toEqual(['reasoning-delta', 'reasoning-delta', 'text-delta', 'finish']);
  });

  it('drops reasoning that comes after text, and counts it', () => {
    const mapper = new ChunkMapper(false);
    const out: ChatStreamPart[] = [];
    mapper.chunk(delta({ delta: { content: 'x' } }), out);
    mapper.chunk(delta({ delta: { reasoning: 'late' } }), out);
    expect(out).toEqual([{ type: 'text-delta', text: 'x' }]);
    expect(mapper.droppedReasoning).toBe(1);
  });

  it('throws on an error object inside the stream', () => {
    expect(() => run([{ error: { message: 'boom' } }])).toThrow(UpstreamReportedError);
    expect(() => run([{ object: 'error', message: 'boom' }])).toThrow(UpstreamReportedError);
  });
});

describe('tool calls', () => {
  // A field given as undefined is left out of the chunk, as servers leave it out of later pieces.
  const call = (index: number, id: string | undefined, name: string | undefined, args: string | undefined) =>
    delta({
      delta: {
        tool_calls: [
          {
            index,
            ...(id === undefined ? {} : { id }),
            function: { ...(name === undefined ? {} : { name }), ...(args === undefined ? {} : { arguments: args }) },
          },
        ],
      },
    });

  it('assembles fragments: id and name first, then argument pieces', () => {
    const parts = run([
      call(0, 'a', 'f', ''),
      call(0, undefined, undefined, '{"x"'),
      call(0, undefined, undefined, ':1}'),
    ]);
    expect(parts.slice(0, -1)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x"' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: ':1}' },
      { type: 'tool-call-end', index: 0 },
    ]);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', reason: 'tool_calls' });
  });

  it('does not repeat the name when an upstream repeats id and name on every fragment', () => {
    const parts = run([call(0, 'a', 'f', '{"x"'), call(0, 'a', 'f', ':1}')]);
    expect(parts.filter((p) => p.type === 'tool-call-start')).toHaveLength(1);
    expect(parts.filter((p) => p.type === 'tool-call-delta')).toHaveLength(2);
  });

  it('starts a new call when an index is reused with a new id', () => {
    const parts = run([call(0, 'a', 'f', '{}'), call(0, 'b', 'g', '{}')]);
    expect(parts.filter((p) => p.type === 'tool-call-start')).toEqual([
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'b', name: 'g' },
    ]);
  });

  it('holds argument pieces that arrive before the name', () => {
    const parts = run([call(0, 'a', undefined, '{"x"'), call(0, undefined, 'f', ':1}')]);
    expect(parts.slice(0, 3)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'a', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x"' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: ':1}' },
    ]);
  });

  it('issues call_<24 hex> ids unless told to pass them through', () => {
    const [start] = run([call(0, 'chatcmpl-tool-1', 'f', '{}')], true);
    expect(start).toMatchObject({ type: 'tool-call-start' });
    if (start?.type === 'tool-call-start') expect(start.id).toMatch(/^call_[0-9a-f]{24}$/);
  });

  it('maps the calls of a whole reply, which carry no index', () => {
    const mapper = new ChunkMapper(false);
    const out: ChatStreamPart[] = [];
    mapper.chunk(
      {
        choices: [
          {
            message: {
              content: '',
              tool_calls: [
                { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
                { id: 'b', type: 'function', function: { name: 'g', arguments: '{"y":2}' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
      out,
      true,
    );
    mapper.finish(out);
    expect(out.map((p) => p.type)).toEqual([
      'tool-call-start',
      'tool-call-delta',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'tool-call-end',
      'finish',
    ]);
  });
});
