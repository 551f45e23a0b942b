import { Readability } from '@mozilla/readability';
import { removeFurniture, removeHidden, stripChrome, stripClasses } from './boilerplate.js';
import { countWords, type DomDocument, type DomElement } from './dom.js';
import { proseWords, pruneArticle, pruneCaptions } from './prune.js';
import { hasText } from './subtree-text.js';

type ReadabilityDocument = ConstructorParameters<typeof Readability>[0];

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

/** The part of Readability 0.6's instance that lazyBylineTest reads and replaces. */
interface BylineTest {
  REGEXPS?: { byline?: RegExp };
  _isValidByline?: (node: DomElement, matchString: string) => boolean;
}

/**
 * Readability's byline test (`_isValidByline`) with the same answer, but reading the element's text
 * only when its rel, itemprop or name could make it a byline. Readability's own reads the text
 * first, and it tests every element of the page until it finds a byline: on a page without one
 * (removeFurniture takes most of them out before Readability runs) that is the whole text of every
 * element, the html and body included, on every pass over the page: about a tenth of Readability's
 * time on the benchmark pages. Set on our instance only, when that instance has the method.
 */
function lazyBylineTest(reader: BylineTest): void {
  const byline = reader.REGEXPS?.byline;
  if (typeof reader._isValidByline !== 'function' || !(byline instanceof RegExp)) return;
  reader._isValidByline = (node, matchString) => {
    const itemprop = node.getAttribute('itemprop');
    const named = node.getAttribute('rel') === 'author' || itemprop?.includes('author') || byline.test(matchString);
    if (!named) return false;
    const length = (node.textContent ?? '').trim().length;
    return length > 0 && length < 100;
  };
}

/** The part of Readability 0.6's instance that lazyVisibilityTest reads and replaces. */
export interface VisibilityTest {
  _isProbablyVisible?: (node: DomElement) => unknown;
}

/**
 * Readability's visibility test (`_isProbablyVisible`), asked of every element of the page on each
 * pass, reads `node.style.display` and `node.style.visibility`: linkedom makes each element a
 * CSSStyleDeclaration (a Map behind a Proxy) for it and reads the style attribute into it. An
 * element without a style attribute has both empty, and only the attribute tests that follow
 * decide; those are asked directly, and Readability's own test runs only for elements with a style
 * attribute. About a sixth of Readability's time and garbage on the benchmark pages. Set on our
 * instance only, when it has the method; a test compares the answers with Readability's own.
 */
export function lazyVisibilityTest(reader: VisibilityTest): void {
  const stock = reader._isProbablyVisible;
  if (typeof stock !== 'function') return;
  reader._isProbablyVisible = (node) =>
    typeof node.hasAttribute !== 'function' || node.hasAttribute('style')
      ? stock.call(reader, node)
      : visibleByAttributes(node);
}

/** Readability 0.6's visibility test without its style part (which passes when there is no style). */
function visibleByAttributes(node: DomElement): boolean {
  if (node.hasAttribute('hidden')) return false;
  if (!node.hasAttribute('aria-hidden') || node.getAttribute('aria-hidden') !== 'true') return true;
  // As Readability checks it: an SVG element's className is an object without `includes`.
  const name: unknown = node.className;
  return typeof name === 'string' && name.includes('fallback-image');
}

/** The part of Readability 0.6's instance that lazyEmptinessTest replaces. */
export interface EmptinessTest {
  _isElementWithoutContent?: (node: DomElement) => boolean;
}

/**
 * Readability's emptiness test (`_isElementWithoutContent`), asked of every div, section, header
 * and heading on each pass, begins with `textContent.trim()`: the whole text of the block, which
 * for the page's outer blocks is the whole page, once per level of nesting. Whether a block holds
 * any text but whitespace is known at its first word (subtree-text.ts); only a block with none
 * goes on to Readability's own test. Set on our instance only, when it has the method; a test
 * compares the answers with Readability's own.
 */
export function lazyEmptinessTest(reader: EmptinessTest): void {
  const stock = reader._isElementWithoutContent;
  if (typeof stock !== 'function') return;
  reader._isElementWithoutContent = (node) => node.nodeType === 1 && !hasText(node) && stock.call(reader, node);
}

/** The part of Readability 0.6's instance that quietGrabbedLog wraps. */
export interface GrabbedLog {
  _debug?: boolean;
  _grabArticle?: (...args: unknown[]) => DomElement | null;
  _postProcessContent?: (article: DomElement, ...rest: unknown[]) => unknown;
}

/**
 * Readability's parse() logs `"Grabbed: " + articleContent.innerHTML` between `_grabArticle` and
 * `_postProcessContent` whether or not it is debugging: the whole article serialised to HTML on
 * every page, for a log line nobody reads (a fiftieth of the reader's time on the benchmark
 * pages). On our instance, when not debugging, the article `_grabArticle` returns reads as empty
 * HTML until `_postProcessContent` starts, the next thing parse() does with it; readabilityExtract
 * also drops the stand-in after parse(), so nothing after that could ever see it. Set only when the
 * instance has both methods; a test checks the order and the output.
 */
export function quietGrabbedLog(reader: GrabbedLog): void {
  const grab = reader._grabArticle;
  const post = reader._postProcessContent;
  if (typeof grab !== 'function' || typeof post !== 'function') return;
  reader._grabArticle = (...args) => {
    const article = grab.apply(reader, args);
    if (article && !reader._debug) Object.defineProperty(article, 'innerHTML', { configurable: true, get: () => '' });
    return article;
  };
  reader._postProcessContent = (article, ...rest) => {
    unquiet(article);
    return post.call(reader, article, ...rest);
  };
}

/** Takes quietGrabbedLog's stand-in off the element (its own property), if it is there. */
const unquiet = (article: DomElement): void => {
  if (Object.hasOwn(article, 'innerHTML')) delete (article as { innerHTML?: string }).innerHTML;
};

/** The part of Readability 0.6's instance that taggedByName reads and replaces. */
export interface TagQuery {
  _getAllNodesWithTag?: (node: DomDocument | DomElement, tagNames: string[]) => ArrayLike<DomElement>;
}

interface ByTagName {
  getElementsByTagName?: (name: string) => ArrayLike<DomElement>;
}

/**
 * Readability's tag query (`_getAllNodesWithTag`) asks `querySelectorAll("p")` even for one tag,
 * and linkedom parses and compiles every selector afresh (css-select, no cache); Readability asks
 * for one tag about 30 times a page, many of them per cleaned block. linkedom's
 * `getElementsByTagName` walks the same elements in the same order without a selector. In an HTML
 * document it matches an upper-case name against every element whatever the case of its local
 * name (Readability's own `createElement("DIV")` makes a local name `DIV`, which a lower-case name
 * would miss): the same elements as the selector's case-insensitive match. Unlike the selector it
 * would enter a template's content; extractContent has taken every template out before Readability
 * runs. Several tags still go to Readability's own query. Set on our instance only, when it has the
 * method; a test compares the lists with Readability's own.
 */
export function taggedByName(reader: TagQuery): void {
  const stock = reader._getAllNodesWithTag;
  if (typeof stock !== 'function') return;
  reader._getAllNodesWithTag = (node, tagNames) => {
    const byName = (node as ByTagName).getElementsByTagName;
    const [tag] = tagNames;
    return tagNames.length === 1 && tag !== undefined && typeof byName === 'function'
      ? byName.call(node, tag.toUpperCase())
      : stock.call(reader, node, tagNames);
  };
}

function readabilityExtract(doc: DomDocument): DomElement | undefined {
  // Readability mutates the document; the caller passes a copy it no longer needs. The serializer
  // hands back its article element itself, not its HTML to be parsed once more.
  const reader = new Readability(doc as unknown as ReadabilityDocument, {
    keepClasses: true,
    serializer: (element) => element as unknown as string,
  });
  lazyBylineTest(reader as unknown as BylineTest);
  lazyVisibilityTest(reader as unknown as VisibilityTest);
  lazyEmptinessTest(reader as unknown as EmptinessTest);
  quietGrabbedLog(reader as unknown as GrabbedLog);
  taggedByName(reader as unknown as TagQuery);
  const article = reader.parse();
  const root = article?.content as unknown as DomElement | null | undefined;
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
