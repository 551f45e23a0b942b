import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaCppEngine, type LlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import type { ChatMessage, ChatRequest, ChatStreamPart } from '../../../src/engines/chat/types.js';
import { AFTER_TOOL_REPLY, JSON_REPLY, PLAIN_REPLY, THOUGHT } from '../../../src/test-models/programmed-model.js';
import { collect, finishOf, request, tempModels, textOf, weatherTool } from './fixture.js';

/** The API's sampling extremes: the gen-4.6 defaults, no top_p cut at all, and a tiny top_p. */
const SAMPLINGS: ChatRequest['sampling'][] = [
  { temperature: 1, topP: 0.95, greedy: false, seed: 1 },
  { temperature: 1, topP: 1, greedy: false, seed: 2 },
  { temperature: 1, topP: 1, greedy: false, seed: 3 },
  { temperature: 0.01, topP: 0.01, greedy: false, seed: 4 },
];

const SYSTEM: ChatMessage = { role: 'system', content: 'You are terse.' };

let programmed: LlamaCppEngine;
let thinking: LlamaCppEngine;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const models = await tempModels();
  cleanup = models.cleanup;
  const common = { threads: 1, contextSize: 2048 };
  programmed = await createLlamaCppEngine({ modelPath: models.paths.programmed, ...common });
  thinking = await createLlamaCppEngine({ modelPath: models.paths.thinking, ...common });
});
afterAll(async () => {
  await programmed?.close();
  await thinking?.close();
  await cleanup?.();
});

/** Each call's name, then its arguments (the deltas joined: they stream as the model writes them). */
const callsOf = (parts: ChatStreamPart[]) => {
  const out: string[] = [];
  for (const p of parts) {
    if (p.type === 'tool-call-start') out.push(p.name, '');
    else if (p.type === 'tool-call-delta') out[out.length - 1] += p.argumentsDelta;
  }
  return out;
};

describe.each(SAMPLINGS.map((s) => [`T=${s.temperature} top_p=${s.topP} seed=${s.seed}`, s] as const))(
  'programmed model under sampling %s',
  (_label, sampling) => {
    it('answers the plain reply whatever the system prompt', async () => {
      const messages: ChatMessage[] = [SYSTEM, { role: 'user', content: 'Say hello.' }];
      expect(textOf(await collect(programmed, request({ messages, sampling })))).toBe(PLAIN_REPLY);
      const long: ChatMessage[] = [
        { role: 'system', content: 'Answer in French. '.repeat(50) },
        { role: 'user', content: '{"not": "json"} <b>markup</b> and \u00e9t\u00e9 ✓' },
      ];
      expect(textOf(await collect(programmed, request({ messages: long, sampling })))).toBe(PLAIN_REPLY);
    });

    it('answers valid JSON in JSON mode', async () => {
      const messages: ChatMessage[] = [SYSTEM, { role: 'user', content: 'Give a JSON object about Paris.' }];
      const parts = await collect(programmed, request({ messages, sampling, responseFormat: 'json_object' }));
      expect(textOf(parts)).toBe(JSON_REPLY);
    });

    it('calls the offered function, then answers from its result', async () => {
      const messages: ChatMessage[] = [SYSTEM, { role: 'user', content: 'Weather in Paris?' }];
      const parts = await collect(programmed, request({ messages, sampling, tools: [weatherTool] }));
      expect(callsOf(parts)).toEqual(['get_weather', '{"city":"Paris"}']);
      expect(finishOf(parts).reason).toBe('tool_calls');
      messages.push(
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"sky": "sunny"}' },
      );
      const second = await collect(programmed, request({ messages, sampling, tools: [weatherTool] }));
      expect(textOf(second)).toBe(AFTER_TOOL_REPLY);
      expect(finishOf(second).reason).toBe('stop');
    });

    it('fills every argument of a wider schema deterministically', async () => {
      const tool = {
        name: 'getWeather',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
          required: ['city', 'unit'],
          additionalProperties: false,
        },
      };
      const parts = await collect(programmed, request({ sampling, tools: [tool] }));
      expect(callsOf(parts)).toEqual(['getWeather', '{"city":"Paris","unit":"c"}']);
    });

    it('thinking variant: reasoning, then the reply; disabled: the reply only', async () => {
      const messages: ChatMessage[] = [SYSTEM, { role: 'user', content: 'Say hello.' }];
      const parts = await collect(thinking, request({ messages, sampling }));
      expect(textOf(parts, 'reasoning-delta')).toBe(THOUGHT);
      expect(textOf(parts)).toBe(PLAIN_REPLY);
      const off = await collect(thinking, request({ messages, sampling, thinking: false }));
      expect(textOf(off, 'reasoning-delta')).toBe('');
      expect(textOf(off)).toBe(PLAIN_REPLY);
    });
  },
);
