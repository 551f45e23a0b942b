import { describe, expect, it } from 'vitest';
import { splitText } from '../../../src/services/agents/split-text.js';

/** One token a character: budgets are then easy to reason about. */
const count = async (text: string) => [...text].length;
const rejoin = (pieces: { text: string; separator: string }[]) => pieces.map((p) => p.separator + p.text).join('');

describe('splitText', () => {
  it('keeps a text that fits whole', async () => {
    expect(await splitText('  One.\n\nTwo.  ', 100, count)).toEqual([{ text: 'One.\n\nTwo.', separator: '' }]);
  });

  it('groups paragraphs into pieces under the budget, keeping each original break', async () => {
    const text = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40), 'd'.repeat(40)].join('\n\n\n');
    const pieces = await splitText(text, 90, count);
    expect(pieces.map((p) => p.text)).toEqual([
      `${'a'.repeat(40)}\n\n\n${'b'.repeat(40)}`,
      `${'c'.repeat(40)}\n\n\n${'d'.repeat(40)}`,
    ]);
    expect(pieces[1]!.separator).toBe('\n\n\n');
    expect(rejoin(pieces)).toBe(text);
  });

  it('cuts a paragraph longer than a piece at sentence ends, Latin and CJK', async () => {
    const para = `${'First sentence here. '.repeat(3)}最后一句。第二句。`;
    const pieces = await splitText(para.trim(), 30, count);
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) expect([...p.text].length).toBeLessThanOrEqual(30);
    expect(rejoin(pieces)).toBe(para.trim());
  });

  it('cuts a sentence longer than a piece anywhere, losing nothing', async () => {
    const text = 'x'.repeat(250);
    const pieces = await splitText(text, 100, count);
    expect(pieces.length).toBe(3);
    expect(rejoin(pieces)).toBe(text);
  });

  it('treats runs of blank lines and spaces between paragraphs as one break', async () => {
    const text = `${'a'.repeat(60)}\n \n\n${'b'.repeat(60)}`;
    const pieces = await splitText(text, 70, count);
    expect(pieces.map((p) => p.separator)).toEqual(['', '\n \n\n']);
    expect(rejoin(pieces)).toBe(text);
  });
});

describe('splitText on a long text of short paragraphs', () => {
  it('fills pieces near the budget with calls in proportion to the pieces (200 KB)', async () => {
    // About four characters a token, as most tokenizers make of prose.
    let calls = 0;
    const prose = async (text: string) => {
      calls++;
      return Math.ceil(Buffer.byteLength(text) / 4) + 3;
    };
    const paragraphs = Array.from({ length: 4400 }, (_, i) => `Paragraph ${i} says a few words.`);
    const text = paragraphs.join('\n\n').padEnd(200_000, ' more words');
    expect(text.length).toBeGreaterThanOrEqual(200_000);
    const budget = 2000;
    const pieces = await splitText(text, budget, prose);
    // ~50,000 tokens in pieces of at most 2,000: 26 at the least; before, 4,400 calls.
    expect(pieces.length).toBeLessThanOrEqual(40);
    expect(calls).toBeLessThanOrEqual(2 * pieces.length + 10);
    for (const p of pieces) expect(await prose(p.text)).toBeLessThanOrEqual(budget);
    expect(rejoin(pieces)).toBe(text.trim());
  });

  it('re-cuts a piece whose estimate was short (dense text after sparse text)', async () => {
    const sparse = Array.from({ length: 40 }, () => 'a'.repeat(20)).join('\n\n');
    const dense = Array.from({ length: 40 }, () => '字'.repeat(20)).join('\n\n');
    // One token per ASCII character, three per CJK character.
    const weighted = async (t: string) => [...t].reduce((n, c) => n + (c.charCodeAt(0) > 127 ? 3 : 1), 0);
    const text = `${sparse}\n\n${dense}`;
    const pieces = await splitText(text, 300, weighted);
    for (const p of pieces) expect(await weighted(p.text)).toBeLessThanOrEqual(300);
    expect(rejoin(pieces)).toBe(text);
  });
});
