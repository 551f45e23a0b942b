import { describe, expect, it } from 'vitest';
import type { ChatStreamPart } from '../../../src/engines/chat/types.js';
import { ChunkEncoder } from '../../../src/services/chat/chunk-encoder.js';

const identities = [
  { id: 'req-1', created: 1747393912, model: 'gen-4.6', requestId: 'req-1' },
  { id: 'a"b\\c\u0001', created: 0, model: '模型 "x"\n', requestId: 'r' },
];

const usage = { promptTokens: 12, completionTokens: 10, cachedTokens: 3, reasoningTokens: 2 };

const parts: ChatStreamPart[] = [
  { type: 'text-delta', text: 'Hello' },
  { type: 'text-delta', text: '' },
  { type: 'text-delta', text: 'quote " backslash \\ newline \n emoji 🦊 \u2028' },
  { type: 'reasoning-delta', text: 'think "hard"' },
  { type: 'reasoning-delta', text: '' },
  { type: 'finish', reason: 'stop', usage },
  { type: 'finish', reason: 'tool_calls', usage: { ...usage, cachedTokens: 0 } },
  { type: 'finish', reason: 'network_error', usage },
];

// The JSON writers build text around a cached head instead of serialising each chunk; what they
// write must stay byte for byte what JSON.stringify makes of the chunk objects.
describe('ChunkEncoder JSON text', () => {
  for (const identity of identities) {
    it(`encodeJson is JSON.stringify(encode) for every part (id ${JSON.stringify(identity.id)})`, () => {
      for (const toolStream of [false, true]) {
        const encoder = new ChunkEncoder(identity, toolStream);
        const reference = new ChunkEncoder(identity, toolStream);
        for (const part of parts) {
          const chunk = reference.encode(part);
          expect(encoder.encodeJson(part)).toBe(chunk === undefined ? undefined : JSON.stringify(chunk));
        }
      }
    });

    it(`finishJson is JSON.stringify(finish), with and without usage (id ${JSON.stringify(identity.id)})`, () => {
      const encoder = new ChunkEncoder(identity, false);
      for (const reason of ['stop', 'length', 'tool_calls', 'sensitive', 'network_error'] as const) {
        expect(encoder.finishJson(reason, usage)).toBe(JSON.stringify(encoder.finish(reason, usage)));
        expect(encoder.finishJson(reason)).toBe(JSON.stringify(encoder.finish(reason)));
        expect(JSON.parse(encoder.finishJson(reason))).toEqual(encoder.finish(reason));
      }
    });
  }
});
