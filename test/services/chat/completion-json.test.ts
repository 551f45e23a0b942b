import { describe, expect, it } from 'vitest';
import type { ChatStreamPart } from '../../../src/engines/chat/types.js';
import { completionJson } from '../../../src/services/chat/completion-json.js';
import { foldParts } from '../../../src/services/chat/fold-parts.js';
import type { ChatCompletion } from '../../../src/services/chat/wire-types.js';

async function* from(parts: ChatStreamPart[]): AsyncGenerator<ChatStreamPart> {
  yield* parts;
}

const usage = { promptTokens: 12, completionTokens: 10, cachedTokens: 3, reasoningTokens: 2 };
const identities = [
  { id: 'req-1', requestId: 'req-1', created: 1747393912, model: 'gen-4.6' },
  { id: 'a"b\\c\u0001', requestId: '模型 "x"\n', created: 0, model: '\u2028' },
];
const replies: ChatStreamPart[][] = [
  [
    { type: 'text-delta', text: 'Hello "fox" \\ 🦊\n' },
    { type: 'finish', reason: 'stop', usage },
  ],
  [{ type: 'finish', reason: 'length', usage: { ...usage, cachedTokens: 0, reasoningTokens: 0 } }],
  [
    { type: 'reasoning-delta', text: 'think' },
    { type: 'tool-call-start', index: 1, id: 'call_b', name: 'b' },
    { type: 'tool-call-start', index: 0, id: 'call_a', name: 'a' },
    { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":1}' },
    { type: 'tool-call-end', index: 0 },
    { type: 'tool-call-end', index: 1 },
    { type: 'finish', reason: 'tool_calls', usage },
  ],
];

// The folded reply is written as text around its constant keys; it must stay byte for byte what
// JSON.stringify makes of the object, with and without search results.
describe('completionJson', () => {
  for (const identity of identities) {
    for (const [i, parts] of replies.entries()) {
      it(`is JSON.stringify of the folded reply ${i} (id ${JSON.stringify(identity.id)})`, async () => {
        const completion = await foldParts(from(parts), identity);
        expect(completionJson(completion)).toBe(JSON.stringify(completion));
        const searched: ChatCompletion = {
          ...completion,
          web_search: [
            {
              title: 't "q"',
              link: 'https://example.com',
              content: 'c',
              icon: '',
              media: '',
              refer: 'ref_1',
              publish_date: '',
            },
          ],
        };
        expect(completionJson(searched)).toBe(JSON.stringify(searched));
      });
    }
  }
});
