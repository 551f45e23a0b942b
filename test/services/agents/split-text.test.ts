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
