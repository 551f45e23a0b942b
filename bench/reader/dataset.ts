import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from '#linkedom';
import { blockText, type TextNode } from './text.js';

/**
 * The benchmark pages: one folder per page under `data/`, holding `source.html` (the page as served)
 * and the ground truth as `expected.txt` (plain text) or `expected.html` (the article's markup,
 * whose block-aware text is taken), in the layout of Mozilla Readability's test pages; `url.txt`
 * optionally gives the page's address. See `data/README.md` for where each page comes from.
 */
export interface BenchPage {
  name: string;
  url: string;
  html: string;
  truth: string;
  /** What kind of page (`kind.txt`; else the folder's source: `goose`, `mozilla`). */
  kind: string;
}

export const DATA_DIR = new URL('./data/', import.meta.url);

const htmlText = (html: string): string => {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`) as unknown as {
    document: { body: TextNode };
  };
  return blockText(document.body);
};

function readTruth(folder: string): string | undefined {
  const txt = join(folder, 'expected.txt');
  if (existsSync(txt)) return readFileSync(txt, 'utf8');
  const html = join(folder, 'expected.html');
  return existsSync(html) ? htmlText(readFileSync(html, 'utf8')) : undefined;
}

export function loadPages(dir: string = DATA_DIR.pathname): BenchPage[] {
  if (!existsSync(dir)) return [];
  const pages: BenchPage[] = [];
  for (const name of readdirSync(dir).sort()) {
    const folder = join(dir, name);
    const source = join(folder, 'source.html');
    if (!existsSync(source)) continue;
    const truth = readTruth(folder);
    if (truth === undefined) continue;
    const urlFile = join(folder, 'url.txt');
    const url = existsSync(urlFile) ? readFileSync(urlFile, 'utf8').trim() : `http://fakehost/test/${name}/`;
    const kindFile = join(folder, 'kind.txt');
    const kind = existsSync(kindFile) ? readFileSync(kindFile, 'utf8').trim() : (name.split('-')[0] ?? name);
    pages.push({ name, url, html: readFileSync(source, 'utf8'), truth, kind });
  }
  return pages;
}
