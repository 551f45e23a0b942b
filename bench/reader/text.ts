/**
 * Block-aware text of a DOM subtree, for any DOM (jsdom or linkedom): block elements and line breaks
 * become line breaks, so that `<p>end.</p><p>Next</p>` never fuses two words into one token. Used
 * for the ground truth's `expected.html` and for the jsdom baseline alike, so neither side is scored
 * on how it joins blocks.
 */
export interface TextNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly textContent: string | null;
  readonly childNodes: ArrayLike<TextNode>;
}

const BREAKS =
  /^(ADDRESS|ARTICLE|ASIDE|BLOCKQUOTE|BR|DD|DIV|DL|DT|FIGCAPTION|FIGURE|FOOTER|H[1-6]|HEADER|HR|LI|MAIN|NAV|OL|P|PRE|SECTION|TABLE|TD|TH|TR|UL|DETAILS|SUMMARY)$/;
const SKIP = /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/;

function walk(node: TextNode, out: string[]): void {
  if (node.nodeType === 3) {
    out.push(node.textContent ?? '');
    return;
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
  const tag = node.nodeName.toUpperCase();
  if (SKIP.test(tag)) return;
  const block = BREAKS.test(tag);
  if (block) out.push('\n');
  for (const child of Array.from(node.childNodes)) walk(child, out);
  if (block) out.push('\n');
}

export function blockText(node: TextNode): string {
  const out: string[] = [];
  walk(node, out);
  return out
    .join('')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
}
