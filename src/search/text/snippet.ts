import { hasCjk } from './cjk.js';

export const SNIPPET_CHARS = 240;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

interface Match {
  at: number;
  term: number;
}

/**
 * A crude suffix stripper, used only to spot matched words for the snippet ("running" ~ "runs");
 * ranking uses the backends' own stemmers.
 */
function roughStem(word: string): string {
  let w = word;
  for (const suffix of ['ies', 'ing', 'ed', 'es', 's', 'ly']) {
    if (w.length > suffix.length + 2 && w.endsWith(suffix)) {
      w = suffix === 'ies' ? `${w.slice(0, -3)}y` : w.slice(0, -suffix.length);
      break;
    }
  }
  // "runn" (from "running") -> "run"
  if (w.length > 3 && w.at(-1) === w.at(-2)) w = w.slice(0, -1);
  return w;
}

function findMatches(text: string, terms: string[]): Match[] {
  const lower = text.toLowerCase();
  const matches: Match[] = [];
  const wordTerms = new Map<string, number>();
  terms.forEach((t, i) => {
    if (hasCjk(t)) {
      // CJK text has no spaces to split on: look for the segment itself.
      for (let at = lower.indexOf(t); at >= 0 && matches.length < 1000; at = lower.indexOf(t, at + t.length)) {
        matches.push({ at, term: i });
      }
    } else {
      wordTerms.set(roughStem(t), i);
    }
  });
  if (wordTerms.size > 0) {
    for (const m of lower.matchAll(WORD)) {
      const term = wordTerms.get(roughStem(m[0]));
      if (term !== undefined) matches.push({ at: m.index, term });
    }
  }
  return matches.sort((a, b) => a.at - b.at);
}

/** The span of `width` chars holding the most distinct terms (then the most hits). */
function bestSpan(matches: Match[], width: number): { from: number; to: number } | undefined {
  let best: { distinct: number; hits: number; from: number; to: number } | undefined;
  let left = 0;
  for (let right = 0; right < matches.length; right++) {
    const r = matches[right]!;
    while (r.at - matches[left]!.at > width) left++;
    const window = matches.slice(left, right + 1);
    const distinct = new Set(window.map((m) => m.term)).size;
    if (!best || distinct > best.distinct || (distinct === best.distinct && window.length > best.hits)) {
      best = { distinct, hits: window.length, from: matches[left]!.at, to: r.at };
    }
  }
  return best && { from: best.from, to: best.to };
}

/** Moves `at` to the nearest word boundary within a short reach, so the cut never splits a word. */
function snap(text: string, at: number, direction: 1 | -1): number {
  if (at <= 0 || at >= text.length) return Math.max(0, Math.min(at, text.length));
  for (let i = 0; i < 30; i++) {
    const p = at + i * direction;
    if (p <= 0 || p >= text.length) return Math.max(0, Math.min(p, text.length));
    if (/\s/.test(text[p]!)) return direction === 1 ? p + 1 : p;
  }
  return at; // CJK text or one very long word: cut where we are
}

/** A window of the content centred on the matched terms, cut at word boundaries. */
export function makeSnippet(content: string, terms: string[], width = SNIPPET_CHARS): string {
  const text = content.replace(/\s+/g, ' ').trim();
  if (text.length <= width) return text;
  const span = bestSpan(findMatches(text, terms), width);
  const centre = span ? Math.round((span.from + span.to) / 2) : 0;
  let from = Math.max(0, Math.min(centre - Math.floor(width / 2), text.length - width));
  let to = from + width;
  from = from === 0 ? 0 : snap(text, from, 1);
  to = to >= text.length ? text.length : snap(text, to, -1);
  const body = text.slice(from, to).trim();
  return `${from > 0 ? '…' : ''}${body}${to < text.length ? '…' : ''}`;
}
