import { Readability } from '@mozilla/readability';
import type { DomDocument, DomElement } from './dom.js';
import { hasText } from './subtree-text.js';

/**
 * The private parts of Readability (0.6.0, pinned exactly in package.json) that ReaderReadability
 * overrides or reads. Readability calls each of these methods as `this._name(...)`, so a subclass's
 * method is the one it runs. An upgrade that renames one leaves Readability's own in use (dead code
 * here, same answers); `readerDependencyChanges` then reports the change as not in effect, and the
 * tests in test/services/reader/reader-readability.test.ts fail.
 */
export interface ReadabilityInternals {
  _debug: boolean;
  REGEXPS: { byline?: RegExp };
  _isValidByline(node: DomElement, matchString: string): boolean;
  _isProbablyVisible(node: DomElement): boolean;
  _isElementWithoutContent(node: DomElement): boolean;
  _getAllNodesWithTag(node: DomDocument | DomElement, tagNames: string[]): ArrayLike<DomElement>;
  _grabArticle(...args: unknown[]): DomElement | null;
  _postProcessContent(article: DomElement, ...rest: unknown[]): unknown;
}

/** The private methods ReaderReadability overrides. */
export const READABILITY_METHODS = [
  '_isValidByline',
  '_isProbablyVisible',
  '_isElementWithoutContent',
  '_grabArticle',
  '_getAllNodesWithTag',
] as const satisfies readonly (keyof ReadabilityInternals)[];

type Options = NonNullable<ConstructorParameters<typeof Readability<DomElement>>[1]>;

/** Readability as published, typed with the internals it has (its declarations list only `parse`). */
const Stock = Readability as unknown as new (
  doc: DomDocument,
  options?: Options,
) => Readability<DomElement> & ReadabilityInternals;

/**
 * Readability with five of its per-element tests made cheaper on linkedom, each giving the answers
 * Readability's own gives (a test compares them). The document is the caller's copy: Readability
 * mutates it.
 */
export class ReaderReadability extends Stock {
  /**
   * Readability's byline test reads the element's text first, and it tests every element of the page
   * until it finds a byline: on a page without one (removeFurniture takes most of them out before
   * Readability runs) that is the whole text of every element, the html and body included, on every
   * pass over the page: about a tenth of Readability's time on the benchmark pages. Here the text is
   * read only when the element's rel, itemprop or name could make it a byline.
   */
  override _isValidByline(node: DomElement, matchString: string): boolean {
    const byline = this.REGEXPS?.byline;
    if (!(byline instanceof RegExp)) return super._isValidByline(node, matchString);
    const itemprop = node.getAttribute('itemprop');
    const named = node.getAttribute('rel') === 'author' || itemprop?.includes('author') || byline.test(matchString);
    if (!named) return false;
    const length = (node.textContent ?? '').trim().length;
    return length > 0 && length < 100;
  }

  /**
   * Readability's visibility test, asked of every element of the page on each pass, reads
   * `node.style.display` and `node.style.visibility`: linkedom makes each element a
   * CSSStyleDeclaration (a Map behind a Proxy) for it and reads the style attribute into it. An
   * element without a style attribute has both empty, and only the attribute tests that follow
   * decide; those are asked directly, and Readability's own test runs only for elements with a style
   * attribute. About a sixth of Readability's time and garbage on the benchmark pages.
   */
  override _isProbablyVisible(node: DomElement): boolean {
    return typeof node.hasAttribute !== 'function' || node.hasAttribute('style')
      ? super._isProbablyVisible(node)
      : visibleByAttributes(node);
  }

  /**
   * Readability's emptiness test, asked of every div, section, header and heading on each pass,
   * begins with `textContent.trim()`: the whole text of the block, which for the page's outer blocks
   * is the whole page, once per level of nesting. Whether a block holds any text but whitespace is
   * known at its first word (subtree-text.ts); only a block with none goes on to Readability's test.
   */
  override _isElementWithoutContent(node: DomElement): boolean {
    return node.nodeType === 1 && !hasText(node) && super._isElementWithoutContent(node);
  }

  /**
   * Readability's parse() logs `"Grabbed: " + articleContent.innerHTML` between `_grabArticle` and
   * `_postProcessContent` whether or not it is debugging: the whole article serialised to HTML on
   * every page, for a log line nobody reads (a fiftieth of the reader's time on the benchmark
   * pages). When not debugging, the article `_grabArticle` returns reads as empty HTML until
   * `_postProcessContent` starts, the next thing parse() does with it; `unquiet` also runs on the
   * result after parse(), so nothing after that could ever see the stand-in.
   */
  override _grabArticle(...args: unknown[]): DomElement | null {
    const article = super._grabArticle(...args);
    if (article && !this._debug && typeof super._postProcessContent === 'function')
      Object.defineProperty(article, 'innerHTML', { configurable: true, get: () => '' });
    return article;
  }

  override _postProcessContent(article: DomElement, ...rest: unknown[]): unknown {
    unquiet(article);
    return super._postProcessContent(article, ...rest);
  }

  /**
   * Readability's tag query asks `querySelectorAll("p")` even for one tag, and linkedom parses and
   * compiles every selector afresh (css-select, no cache); Readability asks for one tag about 30
   * times a page, many of them per cleaned block. linkedom's `getElementsByTagName` walks the same
   * elements in the same order without a selector. In an HTML document it matches an upper-case name
   * against every element whatever the case of its local name (Readability's own
   * `createElement("DIV")` makes a local name `DIV`, which a lower-case name would miss): the same
   * elements as the selector's case-insensitive match. Unlike the selector it would enter a
   * template's content; extractContent has taken every template out before Readability runs.
   * Several tags still go to Readability's own query.
   */
  override _getAllNodesWithTag(node: DomDocument | DomElement, tagNames: string[]): ArrayLike<DomElement> {
    const byName = (node as ByTagName).getElementsByTagName;
    const [tag] = tagNames;
    return tagNames.length === 1 && tag !== undefined && typeof byName === 'function'
      ? byName.call(node, tag.toUpperCase())
      : super._getAllNodesWithTag(node, tagNames);
  }
}

interface ByTagName {
  getElementsByTagName?: (name: string) => ArrayLike<DomElement>;
}

/** Readability 0.6's visibility test without its style part (which passes when there is no style). */
function visibleByAttributes(node: DomElement): boolean {
  if (node.hasAttribute('hidden')) return false;
  if (!node.hasAttribute('aria-hidden') || node.getAttribute('aria-hidden') !== 'true') return true;
  // As Readability checks it: an SVG element's className is an object without `includes`.
  const name: unknown = node.className;
  return typeof name === 'string' && name.includes('fallback-image');
}

/** Takes the `_grabArticle` stand-in off the element (its own property), if it is there. */
export const unquiet = (article: DomElement): void => {
  if (Object.hasOwn(article, 'innerHTML')) delete (article as { innerHTML?: string }).innerHTML;
};

/** Whether Readability as installed still has every method ReaderReadability overrides. */
export const missingReadabilityMethods = (): string[] => {
  const proto = Readability.prototype as unknown as Record<string, unknown>;
  return READABILITY_METHODS.filter((name) => typeof proto[name] !== 'function');
};
