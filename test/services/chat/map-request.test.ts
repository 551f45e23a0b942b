import { describe, expect, it } from 'vitest';
import type { ChatCompletionBody } from '../../../src/api/chat.js';
import type { ApiError } from '../../../src/errors/api-error.js';
import { chatModel } from '../../../src/models/catalogue.js';
import { mapChatRequest } from '../../../src/services/chat/map-request.js';
import { SCRIPTED_CAPABILITIES } from '../../helpers/scripted-chat-engine.js';

const spec = chatModel('gen-4.6')!;
const caps = SCRIPTED_CAPABILITIES;
const map = (extra: Partial<ChatCompletionBody> & { seed?: unknown }, capabilities = caps) =>
  mapChatRequest(
    { model: 'gen-4.6', messages: [{ role: 'user', content: 'Hi' }], ...extra } as ChatCompletionBody,
    spec,
    capabilities,
    'key-1',
  );

describe('mapChatRequest', () => {
  it("applies the model's defaults where the body says nothing", () => {
    const request = map({});
    expect(request.sampling).toEqual({ temperature: spec.temperature, topP: spec.topP, greedy: false });
    expect(request.maxTokens).toBe(Math.min(spec.maxOutput, caps.maxOutput));
    expect(request).toMatchObject({ stop: [], tools: [], responseFormat: 'text', stream: false, tenant: 'key-1' });
    expect(request.thinking).toBe(true);
  });

  it('takes the sampling, limits and format the body sets', () => {
    const request = map({
      temperature: 0.2,
      top_p: 0.5,
      do_sample: false,
      seed: 7,
      max_tokens: 100,
      stop: ['', 'END'],
      response_format: { type: 'json_object' },
      stream: true,
    });
    expect(request.sampling).toEqual({ temperature: 0.2, topP: 0.5, greedy: true, seed: 7 });
    expect(request).toMatchObject({ maxTokens: 100, stop: ['END'], responseFormat: 'json_object', stream: true });
    expect(map({ stop: 'x' }).stop).toEqual(['x']);
    expect(map({ seed: 1.5 }).sampling.seed).toBeUndefined();
  });

  it("caps max_tokens at the engine's own maximum output", () => {
    expect(map({ max_tokens: 5000 }, { ...caps, maxOutput: 300 }).maxTokens).toBe(300);
  });

  it('turns thinking off when the body disables it or the engine cannot think', () => {
    expect(map({ thinking: { type: 'disabled' } }).thinking).toBe(false);
    expect(map({}, { ...caps, thinking: false }).thinking).toBe(false);
  });

  it('sends tool-call arguments as JSON text and keeps earlier reasoning only without clear_thinking', () => {
    const messages = [
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: '',
        reasoning_content: 'look it up',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: { city: 'Paris' } } }],
      },
      { role: 'tool', content: 'sunny', tool_call_id: 'call_1' },
    ] as ChatCompletionBody['messages'];
    const cleared = map({ messages });
    expect(cleared.messages[1]).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'w', arguments: '{"city":"Paris"}' } }],
    });
    const kept = map({ messages, thinking: { type: 'enabled', clear_thinking: false } });
    expect(kept.messages[1]).toMatchObject({ reasoning_content: 'look it up' });
    expect(cleared.messages[2]).toEqual({ role: 'tool', content: 'sunny', tool_call_id: 'call_1' });
  });

  it('passes function tools on and leaves the search tools to the service', () => {
    const tools = [
      { type: 'function', function: { name: 'w', description: 'weather', parameters: { type: 'object' } } },
      { type: 'web_search', web_search: { enable: true } },
    ] as NonNullable<ChatCompletionBody['tools']>;
    expect(map({ tools }).tools).toEqual([{ name: 'w', description: 'weather', parameters: { type: 'object' } }]);
  });

  it('refuses media for an engine without vision, naming the item', () => {
    const messages = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What?' },
          { type: 'image_url', image_url: { url: 'x' } },
        ],
      },
    ] as ChatCompletionBody['messages'];
    let error: ApiError | undefined;
    try {
      map({ messages });
    } catch (err) {
      error = err as ApiError;
    }
    expect(error?.code).toBe(1214);
    expect(error?.message).toContain('messages[0].content[1]');
    expect(map({ messages }, { ...caps, vision: true }).messages[0]!.content).toHaveLength(2);
  });
});
