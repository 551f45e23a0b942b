import bidiModule from 'bidi-js';
import { type FontFace, faceFor } from './fonts.js';

/** A stretch of one face, one bidi level, and either all whitespace or none. */
export interface Run {
  face: FontFace;
  text: string;
  level: number;
}

export interface Line {
  /** Runs in visual order, left to right. */
  runs: Run[];
  width: number;
  /** The paragraph reads right to left: the line is right-aligned. */
  rtl: boolean;
}

export type Measure = (run: Run) => number;

// A CommonJS package whose types are written as ESM: at run time the default import is the factory.
const bidiFactory = bidiModule as unknown as typeof bidiModule.default;
const bidi = bidiFactory();

/** Break opportunities: whitespace, each CJK character (with closing punctuation kept on it), or a word. */
const CJK = '\\u2e80-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\u3040-\\u30ff\\uff00-\\uffef';
const TOKENS = new RegExp(`\\s+|[${CJK}][、。，．！？：；」』）》〉】]*|[^\\s${CJK}]+`, 'gu');

/**
 * Lines of a paragraph that fit `maxWidth`: greedy, breaking at spaces and between CJK characters
 * (a word wider than the line is cut where it overflows). Each line's runs are put in visual order
 * by the Unicode bidi algorithm's levels (bidi-js, rule L2); within a right-to-left run the font
 * engine orders and joins the glyphs itself.
 */
export function layoutParagraph(paragraph: string, maxWidth: number, measure: Measure): Line[] {
  const { levels, paragraphs } = bidi.getEmbeddingLevels(paragraph);
  const rtl = (paragraphs[0]?.level ?? 0) % 2 === 1;
  const lines: Line[] = [];
  let line: Run[] = [];
  let width = 0;
  const flush = () => {
    while (line.length > 0 && /^\s+$/.test(line.at(-1)!.text)) line.pop();
    if (line.length > 0) lines.push({ runs: visualOrder(line), width: line.reduce((w, r) => w + measure(r), 0), rtl });
    line = [];
    width = 0;
  };
  for (const m of paragraph.matchAll(TOKENS)) {
    const runs = toRuns(m[0], m.index, levels, line.at(-1)?.face);
    const w = runs.reduce((sum, r) => sum + measure(r), 0);
    if (/^\s+$/.test(m[0]) && line.length === 0) continue;
    if (width + w > maxWidth && line.length > 0) {
      flush();
      if (/^\s+$/.test(m[0])) continue;
    }
    if (w <= maxWidth) {
      line.push(...runs);
      width += w;
      continue;
    }
    for (const run of runs) {
      for (const ch of run.text) {
        const piece = { ...run, text: ch };
        const cw = measure(piece);
        if (width + cw > maxWidth && line.length > 0) flush();
        line.push(piece);
        width += cw;
      }
    }
  }
  flush();
  return lines.map((l) => ({ ...l, runs: mergeRuns(l.runs) }));
}

/** A token's characters grouped by face and level; whitespace keeps the face before it. */
function toRuns(token: string, start: number, levels: Uint8Array, previous: FontFace | undefined): Run[] {
  const runs: Run[] = [];
  let offset = start;
  for (const ch of token) {
    const last = runs.at(-1);
    const level = levels[offset] ?? 0;
    offset += ch.length;
    const face = /\s/.test(ch) ? (last?.face ?? previous ?? faceFor(0x20)) : faceFor(ch.codePointAt(0)!);
    if (last && last.face === face && last.level === level) last.text += ch;
    else runs.push({ face, text: ch, level });
  }
  return runs;
}

/** Rule L2: from the highest level down to the lowest odd one, reverse every stretch at that level or above. */
function visualOrder(runs: Run[]): Run[] {
  const out = [...runs];
  const max = Math.max(...out.map((r) => r.level));
  const lowestOdd = Math.min(...out.map((r) => (r.level % 2 === 1 ? r.level : r.level + 1)));
  for (let level = max; level >= lowestOdd; level--) {
    for (let i = 0; i < out.length; i++) {
      if (out[i]!.level < level) continue;
      let j = i;
      while (j + 1 < out.length && out[j + 1]!.level >= level) j++;
      out.splice(i, j - i + 1, ...out.slice(i, j + 1).reverse());
      i = j;
    }
  }
  return out;
}

/**
 * Neighbours of one face and level drawn as one: a left-to-right word and its spaces. Right-to-left
 * runs stay a word each, since they are already in visual order and the font engine would reverse
 * a merged run's words again.
 */
function mergeRuns(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const r of runs) {
    const last = out.at(-1);
    if (last && last.face === r.face && last.level === r.level && r.level % 2 === 0) last.text += r.text;
    else out.push({ ...r });
  }
  return out;
}
