import { removeFurniture, removeHidden, stripChrome, stripClasses } from './boilerplate.js';
import { countWords, type DomDocument, type DomElement } from './dom.js';
import { proseWords, pruneArticle, pruneCaptions } from './prune.js';
import { ReaderReadability, unquiet } from './reader-readability.js';

/** Below this many words Readability has probably picked a caption or a teaser, not the page. */
export const MIN_ARTICLE_WORDS = 50;
/** A pick under the floor but this long may be a short article on its own (keepShortArticle). */
const SHORT_ARTICLE_WORDS = 20;

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
  const reader = new ReaderReadability(doc, {
    keepClasses: true,
    serializer: (element) => element as unknown as DomElement,
  });
  const article = reader.parse();
  const root = article?.content;
  if (root) unquiet(root);
  return root && root.childNodes.length > 0 ? root : undefined;
}

function wholePage(doc: DomDocument): DomElement {
  const body = doc.body ?? doc.documentElement;
  stripChrome(body);
  return body;
}

/**
 * Main content of a page: Readability, unless its pick is under a fixed word floor (a fixed floor
 * beats a ratio: docs/architecture.md, "Reader and search"), in which case the whole page without its chrome is the content.
 * `parse` yields a fresh copy of the page each time it is called, its lazy images promoted and its
 * code blocks' languages marked (html-reader.ts).
 */
export function extractContent(parse: () => DomDocument): Extraction {
  const doc = parse();
  removeHidden(doc);
  // Before Readability, which turns small divs into paragraphs and loses their class names
  // (linkedom's attribute copies come out empty).
  if (doc.body) {
    removeFurniture(doc.body);
    pruneCaptions(doc.body);
  }
  const article = readabilityExtract(doc);
  let result: Extraction | undefined;
  if (article) {
    removeFurniture(article);
    pruneArticle(article);
    const words = countWords(article.textContent ?? '');
    result = { root: article, fallback: false, words };
    if (words >= MIN_ARTICLE_WORDS) return finish(result);
  }
  const page = parse();
  const whole = wholePage(page);
  const words = countWords(whole.textContent ?? '');
  if (result && keepShortArticle(result, whole)) return finish(result);
  if (!result || words > result.words) result = { root: whole, fallback: true, words };
  return finish(result);
}

/**
 * A short article (a news brief) is below the floor, yet Readability found it: the rest of the page
 * then holds little prose of its own, only links, teasers and chrome. The whole page wins only
 * when it has clearly more prose outside links than the pick (Readability picked a caption or a
 * teaser beside the real text).
 */
function keepShortArticle(pick: Extraction, whole: DomElement): boolean {
  if (pick.words < SHORT_ARTICLE_WORDS) return false;
  const rest = whole.cloneNode(true) as DomElement;
  removeFurniture(rest);
  pruneArticle(rest);
  return proseWords(rest) < 2 * pick.words + MIN_ARTICLE_WORDS;
}

const finish = (result: Extraction): Extraction => {
  stripClasses(result.root);
  return result;
};
