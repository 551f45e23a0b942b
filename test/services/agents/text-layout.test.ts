import { describe, expect, it } from 'vitest';
import { layoutParagraph, type Run } from '../../../src/services/agents/artifacts/text-layout.js';

/** Every character 10 units wide. */
const measure = (r: Run) => [...r.text].length * 10;
const visual = (lines: ReturnType<typeof layoutParagraph>) => lines.map((l) => l.runs.map((r) => r.text).join(''));

describe('layoutParagraph', () => {
  it('breaks Latin text at spaces and drops the space at the break', () => {
    expect(visual(layoutParagraph('aaa bbb ccc', 75, measure))).toEqual(['aaa bbb', 'ccc']);
  });

  it('breaks CJK text between characters, keeping closing punctuation on its character', () => {
    expect(visual(layoutParagraph('你好，世界。', 30, measure))).toEqual(['你好，', '世界。']);
  });

  it('cuts a word longer than the line', () => {
    expect(visual(layoutParagraph('abcdefghij', 40, measure))).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('puts a right-to-left paragraph in visual order, right-aligned, words kept whole', () => {
    const [line] = layoutParagraph('مرحبا بالعالم', 1000, measure);
    expect(line!.rtl).toBe(true);
    // The first word logically is the rightmost visually; each word stays in logical order for the font engine.
    expect(line!.runs.map((r) => r.text)).toEqual(['بالعالم', ' ', 'مرحبا']);
  });

  it('keeps a Latin word inside Arabic text in its place', () => {
    const [line] = layoutParagraph('مرحبا GPT بالعالم', 1000, measure);
    expect(line!.runs.map((r) => r.text)).toEqual(['بالعالم', ' ', 'GPT', ' ', 'مرحبا']);
  });
});
