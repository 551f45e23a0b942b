import { describe, expect, it } from 'vitest';
import type { InputItem, ResponseCreateBody } from '../../../src/api/responses.js';
import { chatModel } from '../../../src/models/catalogue.js';
import { outputAsInput } from '../../../src/services/responses/input-items.js';
import { afterSearchBody, mapResponsesRequest } from '../../../src/services/responses/map-request.js';

const spec = chatModel('gen-4.6')!;
const map = (body: Partial<ResponseCreateBody>, previous: InputItem[] = []) =>
  mapResponsesRequest({ model: 'gen-4.6', ...body } as ResponseCreateBody, spec, previous);

const refusal = (body: Partial<ResponseCreateBody>) => {
  try {
    map(body);
  } catch (err) {
    return err as { code: number; message: string; field: string };
  }
  throw new Error('not refused');
};

describe('Responses request → chat completion', () => {
  it('a string input is one user message; instructions go first as a system message', () => {
    const turn = map({ input: 'Hi', instructions: 'Be brief.' });
    expect(turn.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
    expect(turn.conversation).toEqual([{ type: 'message', role: 'user', content: 'Hi' }]);
  });

  it('maps messages, parts, developer messages, parallel calls, their outputs and reasoning in order', () => {
    const turn = map({
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Rules.' }] },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look:' },
            { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'low' },
          ],
        },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Need two tools.' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
        { type: 'function_call', call_id: 'call_a', name: 'w', arguments: '{"c":"P"}' },
        { type: 'function_call', call_id: 'call_b', name: 't', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_a', output: '{"sky":"sunny"}' },
        { type: 'function_call_output', call_id: 'call_b', output: [{ type: 'input_text', text: '12:00' }] },
        { type: 'custom_tool_call', call_id: 'call_c', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_c', output: 'Done' },
      ] as InputItem[],
    });
    expect(turn.body.messages).toEqual([
      { role: 'system', content: 'Rules.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        ],
      },
      {
        role: 'assistant',
        content: 'Checking.',
        reasoning_content: 'Need two tools.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'w', arguments: '{"c":"P"}' } },
          { id: 'call_b', type: 'function', function: { name: 't', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '{"sky":"sunny"}' },
      { role: 'tool', tool_call_id: 'call_b', content: '12:00' },
      {
        role: 'assistant',
        tool_calls: [
          {
            id: 'call_c',
            type: 'function',
            function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_c', content: 'Done' },
    ]);
  });

  it('continues a stored conversation: its input, then its output as input, then the new input', () => {
    const previous = [
      { type: 'message', role: 'user', content: 'Weather?' },
      ...outputAsInput([
        {
          id: 'rs_1',
          type: 'reasoning',
          status: 'completed',
          summary: [],
          content: [{ type: 'reasoning_text', text: 'Hm.' }],
        },
        { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'Weather?' } },
        { id: 'fc_1', type: 'function_call', status: 'completed', arguments: '{}', call_id: 'call_1', name: 'w' },
      ]),
    ] as InputItem[];
    const turn = map(
      { input: [{ type: 'function_call_output', call_id: 'call_1', output: 'sunny' }] as InputItem[] },
      previous,
    );
    expect(turn.body.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        reasoning_content: 'Hm.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ]);
    expect(turn.conversation).toHaveLength(4);
  });

  it('maps tools: functions, custom tools as one string argument, web search as a function the model may call', () => {
    const turn = map({
      input: 'Find the news',
      tools: [
        { type: 'function', name: 'w', parameters: { type: 'object' }, strict: true },
        { type: 'custom', name: 'apply_patch', description: 'Patch files' },
        { type: 'web_search', search_context_size: 'high', filters: { allowed_domains: ['example.com'] } },
      ],
    });
    expect(turn.body.tools).toEqual([
      { type: 'function', function: { name: 'w', description: '', parameters: { type: 'object' } } },
      {
        type: 'function',
        function: {
          name: 'apply_patch',
          description: 'Patch files',
          parameters: {
            type: 'object',
            properties: { input: { type: 'string', description: 'The tool input, as free-form text' } },
            required: ['input'],
          },
        },
      },
      {
        type: 'function',
        function: {
          name: 'web_search',
          description: expect.stringContaining('Search the web'),
          parameters: {
            type: 'object',
            properties: { query: { type: 'string', description: expect.any(String) } },
            required: ['query'],
          },
        },
      },
    ]);
    expect([...turn.tools]).toEqual([
      ['w', { name: 'w', custom: false }],
      ['apply_patch', { name: 'apply_patch', custom: true }],
    ]);
    expect(turn.webSearch).toEqual({
      settings: { search_result: true, count: 20, content_size: 'high', search_domain_filter: 'example.com' },
      fallbackQuery: 'Find the news',
    });
    // Once the model asks: the function gone, chat's web_search tool running the model's query.
    expect(afterSearchBody(turn, turn.webSearch!, 'latest news').tools?.slice(2)).toEqual([
      {
        type: 'web_search',
        web_search: {
          search_query: 'latest news',
          search_result: true,
          count: 20,
          content_size: 'high',
          search_domain_filter: 'example.com',
        },
      },
    ]);
  });

  it('web_search beside a client tool of that name is refused; tool_choice none offers no search', () => {
    const web = { type: 'web_search' } as const;
    const own = { type: 'function', name: 'web_search', parameters: { type: 'object' }, strict: false } as const;
    expect(refusal({ input: 'x', tools: [web, own] })).toMatchObject({ code: 1214, field: 'tools' });
    expect(refusal({ input: 'x', tools: [own, web] })).toMatchObject({ code: 1214, field: 'tools' });
    expect(map({ input: 'x', tools: [web], tool_choice: 'none' }).webSearch).toBeUndefined();
  });

  it('maps a namespace tool to one function per inner tool, named namespace__name, and its calls back', () => {
    const turn = map({
      input: [
        { type: 'message', role: 'user', content: 'Spawn one.' },
        { type: 'function_call', call_id: 'call_1', name: 'spawn', namespace: 'agents', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'spawned' },
      ] as InputItem[],
      tools: [
        { type: 'function', name: 'exec' },
        {
          type: 'namespace',
          name: 'agents',
          description: 'Sub-agents.',
          tools: [
            { type: 'function', name: 'spawn', description: 'Spawn an agent', parameters: { type: 'object' } },
            { type: 'custom', name: 'note' },
          ],
        },
      ],
      tool_choice: { type: 'function', name: 'spawn', namespace: 'agents' } as never,
    });
    expect(turn.body.tools?.map((t) => t.type === 'function' && [t.function.name, t.function.description])).toEqual([
      ['exec', ''],
      ['agents__spawn', 'Sub-agents.\n\nSpawn an agent'],
      ['agents__note', 'Sub-agents.'],
    ]);
    expect(turn.tools.get('agents__spawn')).toEqual({ name: 'spawn', namespace: 'agents', custom: false });
    expect(turn.tools.get('agents__note')).toEqual({ name: 'note', namespace: 'agents', custom: true });
    expect(turn.options.toolChoice).toEqual({ name: 'agents__spawn' });
    expect(turn.body.messages[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_1', function: { name: 'agents__spawn', arguments: '{}' } }],
    });
    expect(() =>
      map({
        input: 'x',
        tools: [
          { type: 'function', name: 'a__b' },
          { type: 'namespace', name: 'a', tools: [{ type: 'function', name: 'b' }] },
        ],
      }),
    ).toThrow(/two tools are named a__b/);
  });

  it('maps tool_choice, parallel_tool_calls, text.format, reasoning and the sampling fields', () => {
    const tools = [{ type: 'function' as const, name: 'w' }];
    expect(map({ input: 'x', tools, tool_choice: 'none' }).body.tools).toBeUndefined();
    expect(map({ input: 'x', tools, tool_choice: 'required', parallel_tool_calls: false }).options).toEqual({
      toolChoice: 'required',
      parallelToolCalls: false,
    });
    expect(map({ input: 'x', tools, tool_choice: { type: 'function', name: 'w' } }).options).toEqual({
      toolChoice: { name: 'w' },
    });
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const json = map({ input: 'x', text: { format: { type: 'json_schema', name: 'a', schema } } });
    expect(json.body.response_format).toEqual({ type: 'json_object' });
    expect(json.options.jsonSchema).toEqual(schema);
    expect(map({ input: 'x', text: { format: { type: 'json_object' } } }).body.response_format).toEqual({
      type: 'json_object',
    });
    expect(map({ input: 'x', reasoning: { effort: 'none' } }).body.thinking).toEqual({ type: 'disabled' });
    expect(map({ input: 'x', reasoning: { effort: 'high' } }).body.thinking).toEqual({ type: 'enabled' });
    expect(map({ input: 'x', max_output_tokens: 50, temperature: 0.2, top_p: 0.5 }).body).toMatchObject({
      max_tokens: 50,
      temperature: 0.2,
      top_p: 0.5,
    });
  });

  it.each([
    [{}, 1213, 'input'],
    [{ input: [{ type: 'message', role: 'system', content: 'Only rules.' }] }, 1214, 'input'],
    [{ input: [{ type: 'local_shell_call', call_id: 'x' }] }, 1214, 'input[0].type'],
    [
      { input: [{ type: 'message', role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] },
      1214,
      'input[0].content[0]',
    ],
    [
      { input: [{ type: 'message', role: 'system', content: [{ type: 'input_image', image_url: 'x' }] }] },
      1214,
      'input[0].content[0]',
    ],
    [{ input: 'x', tools: [{ type: 'file_search' }] }, 1214, 'tools[0].type'],
    [{ input: 'x', tools: [{ type: 'function', name: 'a' }, { type: 'local_shell' }] }, 1214, 'tools[1].type'],
    [
      {
        input: 'x',
        tools: [
          { type: 'function', name: 'a' },
          { type: 'custom', name: 'a' },
        ],
      },
      1214,
      'tools',
    ],
    [{ input: 'x', tool_choice: 'required' }, 1214, 'tool_choice'],
    [
      { input: 'x', tools: [{ type: 'function', name: 'a' }], tool_choice: { type: 'function', name: 'b' } },
      1214,
      'tool_choice.name',
    ],
    [{ input: 'x', max_output_tokens: 200_000 }, 1214, 'max_output_tokens'],
    [{ input: 'x', background: true }, 1214, 'background'],
    [{ input: 'x', top_logprobs: 3 }, 1214, 'top_logprobs'],
    [
      { input: 'x', tools: [{ type: 'web_search', filters: { allowed_domains: ['a.com', 'b.com'] } }] },
      1214,
      'tools[0].filters.allowed_domains',
    ],
  ])('refuses %j with %i naming %s', (body, code, field) => {
    const err = refusal(body as Partial<ResponseCreateBody>);
    expect(err.code).toBe(code);
    expect(err.field).toBe(field);
    expect(err.message).toContain(field);
  });

  it('says how to offer a client-run tool that only OpenAI’s models are trained on', () => {
    for (const type of ['local_shell', 'shell', 'apply_patch'] as const) {
      const err = refusal({ input: 'x', tools: [{ type }] } as Partial<ResponseCreateBody>);
      expect(err.message).toContain('offer it as a function or custom tool');
    }
    const hosted = refusal({ input: 'x', tools: [{ type: 'code_interpreter' }] } as Partial<ResponseCreateBody>);
    expect(hosted.message).toContain('hosted tools');
  });
});
