import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ThinkTagSplitter } from '../../../src/engines/chat/openai-compatible/think-tags.js';

function run(pieces: string[]): [string, string] {
  const splitter = new ThinkTagSplitter();
  let reasoning = '';
  let text = '';
  for (const piece of [...pieces.map((p) => splitter.push(p)), splitter.flush()]) {
    reasoning += piece[0];
    text += piece[1];
  }
  return [reasoning, text];
}

/** Cuts `text` at the given points, as network chunks would. */
const cut = (text: string, points: number[]): string[] => {
  const sorted = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let start = 0;
  for (const p of [...sorted, text.length]) {
    out.push(text.slice(start, p));
    start = p;
  }
  return out;
};

describe('ThinkTagSplitter', () => {
  it('splits <think>…</think> from the answer, whitespace after the tag dropped', () => {
    expect(run(['<think>Let me think...</think>\n\nHello.'])).toEqual(['Let me think...', 'Hello.']);
  });

  it('leaves a reply that does not open with <think> alone, and a lone partial tag too', () => {
    expect(run(['Hello <think>x</think>'])).toEqual(['', 'Hello <think>x</think>']);
    expect(run(['\n\n', '你好'])).toEqual(['', '\n\n你好']);
    expect(run(['<thi'])).toEqual(['', '<thi']);
  });

  it('gives the same split wherever the pieces are cut', () => {
    const reply = '  <think>Let me think...</think>\n\nHello from the test model.';
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 8 }), (points) => {
        expect(run(cut(reply, points))).toEqual(['Let me think...', 'Hello from the test model.']);
      }),
    );
  });

  it('reasoning never closed stays reasoning', () => {
    expect(run(['<think>still going', ' on </thi'])).toEqual(['still going on </thi', '']);
  });
});
