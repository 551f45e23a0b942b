import { Readability } from '@mozilla/readability';
import { markCodeLanguages, removeFurniture, removeHidden, stripChrome, stripClasses } from './boilerplate.js';
import { countWords, type DomDocument, type DomElement } from './dom.js';

type ReadabilityDocument = ConstructorParameters<typeof Readability>[0];

/** Below this many words Readability has probably picked a caption or a teaser, not the page. */
export const MIN_ARTICLE_WORDS = 50;

export interface Extraction {
  /** The article as an element of its own small document, ready for formatting. */
  root: DomElement;
  /** Whether the whole-page fallback was used. */
  fallback: boolean;
  words: number;
}

function readabilityExtract(doc: DomDocument): DomElement | undefined {
  // Readability mutates the document; the caller passes a copy it no longer needs. The serializer
  // hands back its article element itself, not its HTML to be parsed once more.
  const article = new Readability(doc as unknown as ReadabilityDocument, {
    keepClasses: true,
    serializer: (element) => element as unknown as string,
  }).parse();
  const root = article?.content as unknown as DomElement | null | undefined;
  return root && root.childNodes.length > 0 ? root : undefined;
}

function wholePage(doc: DomDocument): DomElement {
  const body = doc.body ?? doc.documentElement;
  stripChrome(body);
  return body;
}

/**
 * Main content of a page: Readability, unless its pick is under a fixed word floor (design.md §9: a
 * fixed floor beats a ratio), in which case the whole page without its chrome is the content.
 * `parse` yields a fresh, absolutized copy of the page each time it is called.
 */
export function extractContent(parse: () => DomDocument): Extraction {
  const doc = parse();
  markCodeLanguages(doc);
  removeHidden(doc);
  // Before Readability, which turns small divs into paragraphs and loses their class names.
  if (doc.body) removeFurniture(doc.body);
  const article = readabilityExtract(doc);
  let result: Extraction | undefined;
  if (article) {
    removeFurniture(article);
    const words = countWords(article.textContent ?? '');
    result = { root: article, fallback: false, words };
    if (words >= MIN_ARTICLE_WORDS) return finish(result);
  }
  const page = parse();
  markCodeLanguages(page);
  const whole = wholePage(page);
  const words = countWords(whole.textContent ?? '');
  if (!result || words > result.words) result = { root: whole, fallback: true, words };
  return finish(result);
}

const finish = (result: Extraction): Extraction => {
  stripClasses(result.root);
  return result;
};
