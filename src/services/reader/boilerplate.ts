import { all, type DomDocument, type DomElement, descendants, first } from './dom.js';
import { ownTextTest, textMatches, trimmedTextWithin } from './subtree-text.js';

/**
 * DOM clean-ups around Readability: what is never content (hidden or structural chrome), and the
 * code-language hint, which must survive Readability's class stripping.
 */

const NEVER_CONTENT =
  'script, style, noscript, template, iframe, svg, canvas, object, embed, form, button, select, input, textarea, link, meta';

const CHROME =
  'nav, header, footer, aside, [role="navigation" i], [role="banner" i], [role="contentinfo" i], [role="complementary" i], [role="search" i]';

const LANGUAGE = /(?:^|\s)(?:language|lang|highlight-source|brush:?)-?\s*([\w+#.-]+)/i;

/** `[class], [id]`, and with figcaption, matched without a selector (dom.ts: linkedom compiles each). */
const hasName = (element: DomElement): boolean => element.hasAttribute('class') || element.hasAttribute('id');
const namedOrFigcaption = (element: DomElement): boolean => hasName(element) || element.localName === 'figcaption';

/**
 * What a reader never sees: `[hidden], [aria-hidden="true"], [style*="display:none" i],
 * [style*="display: none" i], [style*="visibility:hidden" i], [style*="visibility: hidden" i],
 * template, dialog`, as a test matching as css-select would (`aria-hidden`'s value case-sensitive,
 * the `i` substrings by a case-insensitive regex, tag names lower-cased), without a selector.
 */
const HIDING_STYLE = /display:none|display: none|visibility:hidden|visibility: hidden/i;
const isHidden = (element: DomElement): boolean => {
  const name = element.localName.toLowerCase();
  if (name === 'template' || name === 'dialog' || element.hasAttribute('hidden')) return true;
  if (element.getAttribute('aria-hidden') === 'true') return true;
  const style = element.getAttribute('style');
  return style !== null && HIDING_STYLE.test(style);
};

export const removeAll = (root: DomDocument | DomElement, selector: string): void => {
  for (const element of all(root, selector)) element.remove();
};

/**
 * Copies `class="language-x"` (on `pre` or its `code`) to `data-language` on the `pre`; `pres`: the
 * page's `pre` elements, when the caller found them already.
 */
export function markCodeLanguages(doc: DomDocument, pres: readonly DomElement[] = all(doc, 'pre')): void {
  for (const pre of pres) {
    const code = first(pre, 'code');
    const source = `${pre.getAttribute('class') ?? ''} ${code?.getAttribute('class') ?? ''} ${pre.getAttribute('data-lang') ?? ''}`;
    const language = pre.getAttribute('data-lang') || LANGUAGE.exec(source)?.[1];
    if (language) pre.setAttribute('data-language', language.toLowerCase());
  }
}

/** Before Readability: drop what a reader never sees. */
export function removeHidden(doc: DomDocument): void {
  for (const element of descendants(doc, isHidden)) element.remove();
}

/** The fallback's view of a page: the body without chrome, scripts and forms. */
export function stripChrome(root: DomDocument | DomElement): void {
  removeAll(root, NEVER_CONTENT);
  removeAll(root, CHROME);
  for (const element of descendants(root, isHidden)) element.remove();
}

const BOILERPLATE_NAME =
  /(^|[\s_-])(share|sharing|social|newsletter|subscribe|subscription|related|recommend\w*|promo\w*|advert\w*|ads?|sponsor\w*|cookie\w*|popup|modal|breadcrumbs?|signup|outbrain|taboola|price|rating|stars|basket|cart|delivery|shipping|feedback|helpful|pagination|pager|edit-?this-?page)($|[\s_-])/i;

/**
 * Blocks that sit in or beside an article but are not its text: picture captions and credits, the
 * byline, author box and post meta line, tag and topic lists, "read also" pointers. Captions run
 * longer than share bars, hence their own length limit.
 */
const ANNOTATION_MAX_CHARS = 400;
const FURNITURE_MAX_CHARS = 200;
const ANNOTATION_NAME =
  /(^|[\s_-])((wp-)?caption\w*|legende|credits?|photo-?credits?|image-?credits?|byline|author\w*|bio|meta|tags?|tag-?list|topics?|keywords|read-?more|see-?also|more-?(stories|from)|others|kudos|\w*profile|signature|sig|user-?(info|card|details)|avatar|rank|joined|username|vcard)($|[\s_-])/i;

const AD_WORD = /advertis|sponsored|anzeige|publicité|广告/i;
/** The longest text AD_WORD matches ("sponsored", "publicité"). */
const AD_WORD_MAX_CHARS = 9;
const AD_LABEL = /^\s*(advertisement|advertising|sponsored|sponsored content|anzeige|publicité|广告)\s*$/i;
/** Longer than any of AD_LABEL's words (with its surrounding whitespace trimmed). */
const AD_LABEL_MAX_CHARS = 32;

const linkDensity = (element: DomElement): number => {
  const text = (element.textContent ?? '').trim().length;
  if (text === 0) return 1;
  const linked = all(element, 'a').reduce((sum, a) => sum + (a.textContent ?? '').trim().length, 0);
  return linked / text;
};

/**
 * An element inside running prose (a link or a span in a sentence) is part of that sentence.
 * `hasOwnText`: the pass's test of a parent's own text (subtree-text.ts, ownTextTest).
 */
const inRunningText = (element: DomElement, hasOwnText: (element: DomElement) => boolean): boolean => {
  if (element.localName === 'a') return true;
  const parent = element.parentElement;
  return parent ? hasOwnText(parent) : false;
};

const isFurniture = (element: DomElement, hasOwnText: (element: DomElement) => boolean): boolean => {
  const name = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
  const boilerplate = BOILERPLATE_NAME.test(name);
  if (!boilerplate) {
    if (!ANNOTATION_NAME.test(name) && element.localName !== 'figcaption') return false;
    // A caption or byline holds no heading; a block that does is a section of the article.
    if (first(element, 'h1, h2, h3, h4, h5, h6')) return false;
  }
  if (inRunningText(element, hasOwnText)) return false;
  if (!boilerplate) return trimmedTextWithin(element, ANNOTATION_MAX_CHARS - 1) !== undefined;
  return trimmedTextWithin(element, FURNITURE_MAX_CHARS - 1) !== undefined || linkDensity(element) > 0.5;
};

/**
 * Blocks named like page furniture (share bars, "related" lists, ad slots, captions, bylines, tag
 * lists) that are short or mostly links. The name alone is not enough: article bodies sometimes
 * carry such class names, so long prose is kept, and so is anything inside a sentence.
 */
export function removeFurniture(root: DomElement): void {
  // Ad slots labelled as such carry no article text. Most pages have no such label at all: one look
  // at the whole text, node by node, spares computing the text of every block.
  if (textMatches(root, AD_WORD, AD_WORD_MAX_CHARS)) {
    for (const element of all(root, 'div, p, span, section, aside')) {
      // A label is one short word or two: a block with longer text is not one.
      const label = trimmedTextWithin(element, AD_LABEL_MAX_CHARS);
      if (label !== undefined && AD_LABEL.test(label)) element.remove();
    }
  }
  const hasOwnText = ownTextTest();
  for (const element of descendants(root, namedOrFigcaption)) if (isFurniture(element, hasOwnText)) element.remove();
}

export function stripClasses(root: DomElement): void {
  for (const element of descendants(root, hasName)) {
    element.removeAttribute('class');
    element.removeAttribute('id');
  }
}
