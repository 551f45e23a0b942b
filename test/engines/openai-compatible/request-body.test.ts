import { describe, expect, it } from 'vitest';
import { type OpenAICompatibleOptions, resolveOptions } from '../../../src/engines/chat/openai-compatible/options.js';
import { buildChatBody } from '../../../src/engines/chat/openai-compatible/request-body.js';
import { capabilities, chatRequest } from './helpers.js';

const body = (request = chatRequest(), extra: Partial<OpenAICompatibleOptions> = {}) =>
  JSON.parse(
    buildChatBody(
      resolveOptions({ baseUrl: 'http://127.0.0.1:8000/v1/', model: 'm', capabilities, ...extra }),
      request,
    ),
  ) as Record<string, unknown>;

describe('request body', () => {
  it('maps a tool round trip: assistant tool_calls with string arguments, tool results, reasoning', () => {
    const sent = body(
      chatRequest({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
          {
            role: 'assistant',
            reasoning_content: 'Need the tool.',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: '{"c":"P"}' } }],
          },
          { role: 'tool', content: '{"t":20}', tool_call_id: 'call_1' },
        ],
        tools: [{ name: 'w', description: 'weather', parameters: { type: 'object' } }, { name: 'n' }],
      }),
    );
    expect(sent['messages']).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        content: '',
        reasoning_content: 'Need the tool.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: '{"c":"P"}' } }],
      },
      { role: 'tool', content: '{"t":20}', tool_call_id: 'call_1' },
    ]);
    expect(sent['tools']).toEqual([
      { type: 'function', function: { name: 'w', description: 'weather', parameters: { type: 'object' } } },
      { type: 'function', function: { name: 'n', parameters: { type: 'object', properties: {} } } },
    ]);
  });

  it('streams with usage, and sends sampling, max tokens, stop and JSON mode', () => {
    const sent = body(chatRequest({ stop: ['\n\n'], responseFormat: 'json_object', maxTokens: 77 }));
    expect(sent).toMatchObject({
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.6,
      top_p: 0.95,
      max_tokens: 77,
      stop: ['\n\n'],
      response_format: { type: 'json_schema', json_schema: { name: 'json_object', schema: { type: 'object' } } },
      chat_template_kwargs: { enable_thinking: true },
    });
    expect(sent).not.toHaveProperty('tools');
  });

  it('sends top_k only when asked, and not when greedy', () => {
    expect(body(chatRequest())).not.toHaveProperty('top_k');
    const sampling = { temperature: 0.9, topP: 0.5, greedy: false, topK: 40 };
    expect(body(chatRequest({ sampling }))['top_k']).toBe(40);
    expect(body(chatRequest({ sampling: { ...sampling, greedy: true } }))).not.toHaveProperty('top_k');
  });

  it('makes greedy temperature 0 and passes the seed', () => {
    const sent = body(chatRequest({ sampling: { temperature: 0.9, topP: 0.5, greedy: true, seed: 42 } }));
    expect(sent['temperature']).toBe(0);
    expect(sent).not.toHaveProperty('top_p');
    expect(sent['seed']).toBe(42);
  });

  it('sends the thinking switch the config names, and none for a model without thinking', () => {
    expect(body(chatRequest({ thinking: false }))['chat_template_kwargs']).toEqual({ enable_thinking: false });
    const ollama = body(chatRequest({ thinking: false }), {
      thinking: { reasoningEffort: { enabled: 'medium', disabled: 'none' } },
    });
    expect(ollama['reasoning_effort']).toBe('none');
    expect(ollama).not.toHaveProperty('chat_template_kwargs');
    const plain = body(chatRequest(), { capabilities: { ...capabilities, thinking: false } });
    expect(plain).not.toHaveProperty('chat_template_kwargs');
    expect(plain).not.toHaveProperty('reasoning_effort');
  });

  it('honours the field options and extra body', () => {
    const sent = body(chatRequest({ messages: [{ role: 'assistant', content: 'x', reasoning_content: 'r' }] }), {
      maxTokensField: 'max_completion_tokens',
      reasoningField: 'reasoning',
      stream: false,
      extraBody: { top_k: 20 },
    });
    expect(sent).toMatchObject({ max_completion_tokens: 1024, stream: false, top_k: 20 });
    expect(sent).not.toHaveProperty('stream_options');
    expect(sent['messages']).toEqual([{ role: 'assistant', content: 'x', reasoning: 'r' }]);
  });

  it('joins the chat path to the base URL and adds the key', () => {
    const resolved = resolveOptions({ baseUrl: 'http://127.0.0.1:8000/v1/', model: 'm', capabilities, apiKey: 'k' });
    expect(resolved.origin).toBe('http://127.0.0.1:8000');
    expect(resolved.chatPath).toBe('/v1/chat/completions');
    expect(resolved.headers['authorization']).toBe('Bearer k');
    expect(resolved.label).toBe('http://127.0.0.1:8000/v1 (m)');
  });
  it('sends tool_choice and parallel_tool_calls when a turn asks for them, with tools only', () => {
    const tools = [{ name: 'w', description: 'weather' }];
    expect(body(chatRequest({ tools, toolChoice: 'required', parallelToolCalls: false }))).toMatchObject({
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
    expect(body(chatRequest({ tools, toolChoice: { name: 'w' } }))['tool_choice']).toEqual({
      type: 'function',
      function: { name: 'w' },
    });
    const plain = body(chatRequest({ tools, toolChoice: 'auto' }));
    expect('tool_choice' in plain || 'parallel_tool_calls' in plain).toBe(false);
    expect('tool_choice' in body(chatRequest({ toolChoice: 'required' }))).toBe(false);
  });

  it("sends a turn's JSON schema as the json_schema response format, or json_object where only that is known", () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(body(chatRequest({ responseFormat: 'json_object', jsonSchema: schema }))['response_format']).toEqual({
      type: 'json_schema',
      json_schema: { name: 'reply', schema, strict: true },
    });
    expect(
      body(chatRequest({ responseFormat: 'json_object', jsonSchema: schema }), { jsonMode: 'json_object' })[
        'response_format'
      ],
    ).toEqual({ type: 'json_object' });
  });
});
