import { absolutizeUrls, documentBase, promoteLazyImages } from './absolutize.js';
import { markCodeLanguages } from './boilerplate.js';
import { byTag, parseDocument } from './dom.js';
import { extractContent } from './extract.js';
import { formatArticle } from './format.js';
import { METADATA_TAGS, readMetadata } from './metadata.js';
import type { ReaderRequest, ReaderResult } from './types.js';

export interface HtmlReading {
  result: ReaderResult;
  /** Words in the page's own text (without chrome), and whether it runs scripts: the `auto` browser test. */
  words: number;
  hasScripts: boolean;
}

const PAGE_TAGS: ReadonlySet<string> = new Set([...METADATA_TAGS, 'img', 'pre']);

/** A decoded HTML page to the spec's reader_result. */
export function readHtml(html: string, pageUrl: string, request: ReaderRequest): HtmlReading {
  const first = parseDocument(html);
  const base = documentBase(first, pageUrl);
  // One walk of the page finds the metadata's elements, the scripts, the images and the code blocks
  // (a whole-page walk costs ~0.3 ms).
  const tagged = byTag(first, PAGE_TAGS);
  const meta = readMetadata(first, base, tagged);
  const hasScripts = (tagged.get('script') ?? []).some((s) => !/json/i.test(s.getAttribute('type') ?? ''));
  let reused = false;
  const parse = () => {
    // Unchanged since the walk: the lazy-image and code-language passes change attributes only.
    const found = reused ? undefined : tagged;
    const doc = reused ? parseDocument(html) : first;
    reused = true;
    promoteLazyImages(doc, found ? (found.get('img') ?? []) : undefined);
    markCodeLanguages(doc, found ? (found.get('pre') ?? []) : undefined);
    return doc;
  };
  const extraction = extractContent(parse);
  // URLs are made absolute in the article only, not in the whole page it was taken from.
  absolutizeUrls(extraction.root, base);
  const formatted = formatArticle(extraction.root, request);
  const result: ReaderResult = {
    content: formatted.content,
    description: meta.description,
    title: meta.title,
    url: pageUrl,
    external: { stylesheet: meta.stylesheets },
    metadata: meta.metadata,
    ...(meta.publishedTime ? { publishedTime: meta.publishedTime } : {}),
    ...(formatted.images ? { images: formatted.images } : {}),
    ...(formatted.links ? { links: formatted.links } : {}),
  };
  return {
    result,
    // Extraction counted them on the text it returns (absolutizing changes no text), before
    // formatting, which may consume the article (the Markdown conversion).
    words: extraction.words,
    hasScripts,
  };
}

/** reader_result for a response that is not HTML. */
export function plainResult(content: string, pageUrl: string, title = ''): ReaderResult {
  return {
    content,
    description: '',
    title,
    url: pageUrl,
    external: { stylesheet: {} },
    metadata: { keywords: '', viewport: '', description: '', 'format-detection': '' },
  };
}
