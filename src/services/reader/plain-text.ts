import { type DomElement, type DomNode, isElement, TEXT_NODE } from './dom.js';

/**
 * Readable plain text from article HTML: blocks separated by blank lines, line breaks kept,
 * list items on their own lines, table cells tab-separated, preformatted text as it is, images left
 * out (as a browser's innerText does).
 */

const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'SECTION',
  'TABLE',
  'UL',
  'DETAILS',
  'SUMMARY',
]);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);

function walk(node: DomNode, out: string[]): void {
  if (node.nodeType === TEXT_NODE) {
    out.push((node.textContent ?? '').replace(/\s+/g, ' '));
    return;
  }
  if (!isElement(node) || SKIP.has(node.nodeName)) return;
  const tag = node.nodeName;
  if (tag === 'BR') return void out.push('\n');
  if (tag === 'PRE') return void out.push(`\n\n${node.textContent ?? ''}\n\n`);
  // Images are not text: their alt text (often a file name or the headline again) stays out.
  if (tag === 'IMG') return;
  if (tag === 'LI') out.push('\n- ');
  else if (tag === 'TR') out.push('\n');
  else if (tag === 'TD' || tag === 'TH') out.push('\t');
  else if (BLOCKS.has(tag)) out.push('\n\n');
  for (const child of Array.from(node.childNodes)) walk(child, out);
  if (BLOCKS.has(tag)) out.push('\n\n');
}

export function toPlainText(root: DomElement): string {
  const out: string[] = [];
  for (const child of Array.from(root.childNodes)) walk(child, out);
  return out
    .join('')
    .split('\n')
    .map((line) =>
      line
        .replace(/[ \u00a0]+/g, ' ')
        .replace(/^ (?=\S)|(?<=\S) $/g, '')
        .replace(/^\t/, ''),
    )
    .join('\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
