import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from '#linkedom';
import { blockText, type TextNode } from './text.js';

/**
 * How the hand-made ground truth of the `goose-*` pages was written (data/README.md): a person reads
 * the page, names the element(s) holding the article body and the parts inside them that are not the
 * article (captions, share bars, "read more" boxes, ads), and this tool writes `annotation.json`
 * (those selectors) and `expected.txt` (their block-aware text), then prints the result to be read
 * and checked by eye.
 *
 *   npx tsx bench/reader/annotate.ts locate <folder> "<words from the article's first sentence>"
 *   npx tsx bench/reader/annotate.ts build <folder> '<selector>' ['<excluded selector>' ...]
 */

interface Annotation {
  select: string;
  exclude: string[];
}

interface Element extends TextNode {
  readonly tagName: string;
  readonly parentElement: Element | null;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<Element>;
  remove(): void;
}

const load = (folder: string): { querySelectorAll(selector: string): ArrayLike<Element>; body: Element } => {
  const { document } = parseHTML(readFileSync(join(folder, 'source.html'), 'utf8')) as unknown as {
    document: { querySelectorAll(selector: string): ArrayLike<Element>; body: Element };
  };
  return document;
};

const describe = (element: Element): string =>
  `${element.tagName.toLowerCase()}${element.getAttribute('id') ? `#${element.getAttribute('id')}` : ''}${
    element.getAttribute('class') ? `.${(element.getAttribute('class') ?? '').trim().split(/\s+/).join('.')}` : ''
  } (${blockText(element).split(/\s+/).length} words)`;

function locate(folder: string, needle: string): void {
  const doc = load(folder);
  const hits = Array.from(doc.querySelectorAll('body *')).filter((element) =>
    (element.textContent ?? '').replace(/\s+/g, ' ').includes(needle),
  );
  const deepest = hits[hits.length - 1];
  for (let element = deepest ?? null; element; element = element.parentElement) console.log(describe(element));
}

function build(folder: string, annotation: Annotation): void {
  const doc = load(folder);
  for (const selector of annotation.exclude)
    for (const element of Array.from(doc.querySelectorAll(selector))) element.remove();
  const text = Array.from(doc.querySelectorAll(annotation.select)).map(blockText).join('\n').trim();
  writeFileSync(join(folder, 'annotation.json'), `${JSON.stringify(annotation, null, 2)}\n`);
  writeFileSync(join(folder, 'expected.txt'), `${text}\n`);
  const lines = text.split('\n');
  console.log(`${lines.length} lines, ${text.split(/\s+/).length} words`);
  console.log(`START: ${text.slice(0, 300)}\n...\nEND: ${text.slice(-300)}`);
  console.log('SHORT LINES:', lines.filter((line) => line.split(/\s+/).length < 8).slice(0, 60));
}

const [command, folder, ...rest] = process.argv.slice(2);
if (command === 'locate' && folder) locate(folder, rest.join(' '));
else if (command === 'build' && folder && rest[0]) build(folder, { select: rest[0], exclude: rest.slice(1) });
else if (command === 'rebuild' && folder && existsSync(join(folder, 'annotation.json')))
  build(folder, JSON.parse(readFileSync(join(folder, 'annotation.json'), 'utf8')) as Annotation);
else
  console.error(
    'usage: annotate.ts locate <folder> <needle> | build <folder> <selector> [exclude...] | rebuild <folder>',
  );
