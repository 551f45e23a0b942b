import type { BenchPage } from './dataset.js';

/** The two extractors compared, each loaded on its own so a child process holds only its own code. */
export type Extractor = (page: BenchPage) => string;
export type ExtractorName = 'ours' | 'jsdom';

/** The reader's own pipeline (Readability on linkedom, fallback and boilerplate rules), `text` format. */
async function ours(): Promise<Extractor> {
  const { readHtml } = await import('../../src/services/reader/html-reader.js');
  return (page) => readHtml(page.html, page.url, { url: page.url, return_format: 'text' }).result.content;
}

/** Baseline: Mozilla Readability on jsdom, its article HTML turned to text by the same block rule as the truth. */
async function jsdom(): Promise<Extractor> {
  const [{ Readability }, { JSDOM }, { blockText }] = await Promise.all([
    import('@mozilla/readability'),
    import('jsdom'),
    import('./text.js'),
  ]);
  return (page) => {
    const dom = new JSDOM(page.html, { url: page.url });
    const content = new Readability(dom.window.document).parse()?.content ?? '';
    const body = dom.window.document.createElement('div');
    body.innerHTML = content;
    const text = blockText(body);
    dom.window.close();
    return text;
  };
}

export const loadExtractor = (name: ExtractorName): Promise<Extractor> => (name === 'ours' ? ours() : jsdom());
