import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanReply } from '../../../src/services/agents/model-caller.js';
import { ReplyStream } from '../../../src/services/agents/reply-stream.js';

/** Feeds `reply` in the given cut points; returns the chunks emitted and the text `end` returns. */
function stream(reply: string, cuts: number[]): { chunks: string[]; text: string } {
  const chunks: string[] = [];
  const s = new ReplyStream((t) => chunks.push(t));
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < reply.length)].sort((a, b) => a - b)) {
    s.push(reply.slice(at, cut));
    at = cut;
  }
  s.push(reply.slice(at));
  return { chunks, text: s.end() };
}

const LONG = 'Le temps est magnifique aujourd’hui. Allons marcher jusqu’au port et compter les bateaux.';

describe('ReplyStream', () => {
  it.each([
    ['plain', LONG],
    ['a code fence', `\`\`\`text\n${LONG}\n\`\`\``],
    ['the translation tags', `<TRANSLATION>\n${LONG}\n</TRANSLATION>`],
    ['the improved-translation tags', `<IMPROVED_TRANSLATION>${LONG}</IMPROVED_TRANSLATION>`],
    ['leading and trailing space', `\n\n  ${LONG}  \n`],
    ['a short reply', 'Bonjour.'],
  ])('%s: the chunks join into what cleanReply makes of the whole', (_label, reply) => {
    const { chunks, text } = stream(reply, [3, 10, 30, 50]);
    expect(chunks.join('')).toBe(cleanReply(reply));
    expect(text).toBe(cleanReply(reply));
  });

  it('sends text before the reply ends when it is long', () => {
    const { chunks } = stream(LONG.repeat(3), [40, 80, 120, 160]);
    expect(chunks.length).toBeGreaterThan(1);
  });

  it('never splits a surrogate pair, wherever the deltas cut', () => {
    const reply = `${'🌍'.repeat(40)} done`;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: reply.length - 1 }), { maxLength: 20 }), (cuts) => {
        const { chunks } = stream(reply, cuts);
        expect(chunks.join('')).toBe(reply);
        for (const c of chunks) expect(/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(c)).toBe(false);
      }),
    );
  });
});
