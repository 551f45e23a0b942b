import type { DomElement, DomNode } from './dom.js';

/**
 * The text of a subtree when only a short text matters. The pruning rules compare a block's text
 * with a small limit (a caption, a teaser line, a repeated label), yet textContent joins the text of
 * the whole subtree, once for every block of a nested page: these stop reading as soon as the
 * limit is passed. Each gives exactly what the full computation would have given below the limit.
 */

const CDATA_NODE = 4;

/** Visits the text of `root`'s subtree in the order textContent joins it, until `visit` says stop. */
function eachText(root: DomElement, visit: (data: string) => boolean): void {
  let node: DomNode | null = root.firstChild;
  while (node) {
    if (node.nodeType === 3 || node.nodeType === CDATA_NODE) {
      if (!visit(node.textContent ?? '')) return;
    } else {
      const child = node.firstChild;
      if (child) {
        node = child;
        continue;
      }
    }
    while (node && node !== root && !node.nextSibling) node = node.parentNode;
    node = node && node !== root ? node.nextSibling : null;
  }
}

/**
 * Reads text until `measure` of what was read passes `max`. A measure that trims (and collapses)
 * can only grow as text is appended, so once past the limit the whole text is past it too; the
 * measure is taken at doubling lengths, which keeps the reading linear.
 */
function within(root: DomElement, max: number, measure: (text: string) => string): string | undefined {
  let raw = '';
  let checkAt = max;
  let over = false;
  eachText(root, (data) => {
    raw += data;
    if (raw.length <= checkAt) return true;
    over = measure(raw).length > max;
    checkAt = raw.length * 2;
    return !over;
  });
  if (over) return undefined;
  const text = measure(raw);
  return text.length > max ? undefined : text;
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();
const trim = (text: string): string => text.trim();

/** textContent with whitespace runs collapsed and trimmed, when at most `max` characters; else undefined. */
export const collapsedTextWithin = (element: DomElement, max: number): string | undefined =>
  within(element, max, collapse);

/** textContent trimmed, when at most `max` characters; else undefined. */
export const trimmedTextWithin = (element: DomElement, max: number): string | undefined => within(element, max, trim);

/** Whether the subtree holds any text that is not whitespace (its collapsed text is not empty). */
export function hasText(element: DomElement): boolean {
  let found = false;
  eachText(element, (data) => {
    found = /\S/.test(data);
    return !found;
  });
  return found;
}

/**
 * Whether the subtree's text (textContent) matches `pattern`, reading it one text node at a time
 * and stopping at the first match, instead of joining the text of a whole page into one string.
 * A match may straddle two text nodes: each node is tested together with the last `span - 1`
 * characters before it, `span` being the longest text the pattern can match.
 */
export function textMatches(element: DomElement, pattern: RegExp, span: number): boolean {
  let tail = '';
  let found = false;
  eachText(element, (data) => {
    const text = tail + data;
    found = pattern.test(text);
    tail = span > 1 ? text.slice(-(span - 1)) : '';
    return !found;
  });
  return found;
}

/**
 * A test of whether an element holds text of its own, beside its child elements, that answers once
 * per element. The rules ask it of the parent of every inline block they look at, so a parent of
 * many (70,000 spans in one div) was read once per child: quadratic, 80 s for a 200 KB page. Make
 * one per pass: removing elements takes no text node away from their parent, so an answer holds
 * for the rest of the pass.
 */
export function ownTextTest(): (element: DomElement) => boolean {
  const known = new Map<DomElement, boolean>();
  return (element) => {
    let answer = known.get(element);
    if (answer === undefined) {
      answer = false;
      for (let node = element.firstChild; node && !answer; node = node.nextSibling)
        answer = node.nodeType === 3 && (node.textContent ?? '').trim() !== '';
      known.set(element, answer);
    }
    return answer;
  };
}
