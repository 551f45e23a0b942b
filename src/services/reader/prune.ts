import { all, closest, countWords, type DomElement, first, TEXT_NODE } from './dom.js';
import { collapsedTextWithin, hasText, ownTextTest } from './subtree-text.js';

/**
 * After Readability: what its pick still carries that is not the article. Each rule is small and
 * looks at one signal; together they run in one pass each over the (small) article, never the page.
 * - navigation: `nav` and landmark roles (prev/next links, in-article menus);
 * - link lists: blocks that are mostly links ("More on this story", "Most read"), unless they are
 *   most of the article (a page that is a list of links is its own content);
 * - teasers: short blocks that open with a pointer label ("READ MORE:", "Tags:", "相关阅读", "اقرأ أيضا");
 * - captions: the text of a picture's own wrapper (a `figure`, or a block named like one), the
 *   picture itself is kept;
 * - repeated blocks: a short line that the article carries twice or more ("[+] Enlarge", "Reply",
 *   "Member", a poster's name): furniture of each item, not prose (a repeated sentence, a pull
 *   quote, is kept once).
 */

const LANDMARKS =
  'nav, [role="navigation" i], [role="contentinfo" i], [role="banner" i], [role="search" i], [role="complementary" i]';

/** Words that open a pointer to other pages, or a label line, in the languages of the test set. */
const TEASER_LABEL =
  /^\s*[[(（【]?\s*(read more|read also|also read|see also|related( stories| articles| posts| content| links)?|more on this( story)?|more from|more:|recommended|you may also like|watch|video|photos?|listen|tags?|topics?|filed under|posted in|categories|category|keywords|share( this)?|follow us|by|相关阅读|相关新闻|相关文章|延伸阅读|推荐阅读|责任编辑|编辑|来源|标签|关键词|关連記事|関連記事|タグ|カテゴリー|参考記事|اقرأ أيضا|اقرأ أيضاً|اقرأ ايضا|الكلمات المفتاحية|وسوم|شارك|עוד כתבות|קראו עוד|תגיות|שתפו)\s*[:：»›>\-–—|]/i;
/** A link-only line that points on ("MORE COMMENTARY »", "Next →"). */
const POINTER_END = /[»›→]\s*$/;

const TEASER_MAX_CHARS = 160;
const CAPTION_MAX_CHARS = 300;
const REPEAT_MAX_CHARS = 60;
const LINK_LIST_DENSITY = 0.6;

const CAPTION_WRAPPER =
  /(^|[\s_-])(img|image|images|photo|photos|pic|picture|media|figure|thumb|thumbnail|gallery|enlarge)(s?)($|[\s_-])/i;

const text = (element: DomElement): string => (element.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Characters in links of a block of `length` characters, `anchors` being its `a` elements. */
const densityOf = (element: DomElement, length: number, anchors: readonly DomElement[]): number => {
  if (length === 0) return 0;
  const linked =
    anchors.reduce((sum, a) => sum + text(a).length, 0) + (element.localName === 'a' ? text(element).length : 0);
  return Math.min(1, linked / length);
};

/** Share of a block's characters that sit in links. */
export function linkDensity(element: DomElement): number {
  return densityOf(element, text(element).length, all(element, 'a'));
}

/** Words outside links: the prose a block holds. */
export function proseWords(element: DomElement): number {
  const links = all(element, 'a')
    .map((a) => countWords(a.textContent ?? ''))
    .reduce((a, b) => a + b, 0);
  return Math.max(0, countWords(element.textContent ?? '') - links);
}

/** `nav` and navigation/landmark roles inside the article. */
export function pruneNavigation(root: DomElement): void {
  for (const element of all(root, LANDMARKS)) element.remove();
}

/** Blocks of two or more links that are mostly link text and a small part of the article. */
export function pruneLinkLists(root: DomElement): void {
  const total = text(root).length;
  for (const block of all(root, 'ul, ol, div, section, aside, p, table, dl')) {
    if (!block.parentElement) continue;
    // One look at the block's links and one at its text serve both tests (nested blocks make each
    // of them a walk of a large part of the article).
    const anchors = all(block, 'a');
    if (anchors.filter(hasText).length < 2) continue;
    const length = text(block).length;
    if (length > total * 0.5) continue;
    if (densityOf(block, length, anchors) >= LINK_LIST_DENSITY) block.remove();
  }
}

/** Short blocks opening with a pointer or label word, and link-only lines that point on. */
export function pruneTeasers(root: DomElement): void {
  const hasOwnText = ownTextTest();
  for (const block of all(root, 'p, div, li, span, section, aside, dl, dd, dt, strong, em, b')) {
    if (!block.parentElement) continue;
    const content = collapsedTextWithin(block, TEASER_MAX_CHARS);
    if (!content) continue;
    if (first(block, 'p, ul, ol, table, pre, blockquote, h1, h2, h3, h4, h5, h6') && block.localName !== 'dl') continue;
    // Inside a sentence (a bold label in running prose), it is not a line of its own.
    if (['span', 'strong', 'em', 'b'].includes(block.localName) && hasOwnText(block.parentElement as DomElement))
      continue;
    const label = TEASER_LABEL.test(content);
    const pointer = POINTER_END.test(content) && linkDensity(block) > 0.8;
    if (label || pointer) block.remove();
  }
}

/** The text in a picture's own wrapper (its caption and credit); the picture stays. */
export function pruneCaptions(root: DomElement): void {
  for (const img of all(root, 'img, picture, video')) {
    const wrapper = captionWrapper(img, root);
    if (!wrapper) continue;
    const content = collapsedTextWithin(wrapper, CAPTION_MAX_CHARS);
    if (!content) continue;
    if (wrapper.querySelector('p p, table, pre, blockquote, h1, h2, h3, h4, h5, h6, ul, ol')) continue;
    const media = all(wrapper, 'img, picture, video');
    for (const child of Array.from(wrapper.childNodes)) {
      if (media.some((m) => m === child || isAncestor(child as DomElement, m))) {
        stripTextAround(child as DomElement, media);
        continue;
      }
      child.remove();
    }
  }
}

function captionWrapper(media: DomElement, root: DomElement): DomElement | undefined {
  for (let element = media.parentElement; element && element !== root; element = element.parentElement) {
    if (element.localName === 'figure') return element;
    const name = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
    // A paragraph is prose around a picture, unless it is a picture's wrapper that Readability
    // turned from a div into a paragraph (it keeps the class).
    if (element.localName === 'p') return CAPTION_WRAPPER.test(name) ? element : undefined;
    if (element.localName === 'div' && CAPTION_WRAPPER.test(name)) return element;
  }
  return undefined;
}

const isAncestor = (ancestor: DomElement, node: DomElement): boolean => {
  for (let n = node.parentElement; n; n = n.parentElement) if (n === ancestor) return true;
  return false;
};

/** Within an element that holds a picture, drops the text nodes and text-only elements beside it. */
function stripTextAround(element: DomElement, media: DomElement[]): void {
  if (media.includes(element)) return;
  for (const child of Array.from(element.childNodes)) {
    if (child.nodeType === TEXT_NODE) child.remove();
    else if (child.nodeType === 1) {
      const el = child as DomElement;
      if (media.some((m) => m === el || isAncestor(el, m))) stripTextAround(el, media);
      else el.remove();
    }
  }
}

const LEAF_BLOCKS = 'p, div, li, dt, dd, span, cite, a, small, strong';
const BLOCK_CHILD = 'ul, ol, table, pre, blockquote, h1, h2, h3, h4, h5, h6';

/** Short lines the article repeats (each item's furniture); list items only when they are links. */
export function pruneRepeated(root: DomElement): void {
  const seen = new Map<string, DomElement[]>();
  const hasOwnText = ownTextTest();
  for (const element of all(root, LEAF_BLOCKS)) {
    if (closest(element, 'pre, table, code')) continue;
    if (first(element, BLOCK_CHILD)) continue;
    const content = collapsedTextWithin(element, REPEAT_MAX_CHARS);
    if (!content || !/\p{L}/u.test(content)) continue;
    const inline = ['span', 'cite', 'a', 'small', 'strong'].includes(element.localName);
    if (inline && hasOwnText(element.parentElement as DomElement)) continue;
    if (element.localName === 'li' && linkDensity(element) < 0.9) continue;
    // One line wrapped in several elements counts once, as its outermost element.
    if (element.parentElement && collapsedTextWithin(element.parentElement, content.length) === content) continue;
    const key = content.toLowerCase();
    const list = seen.get(key) ?? [];
    list.push(element);
    seen.set(key, list);
  }
  for (const [key, elements] of seen) {
    if (elements.length < 2) continue;
    // A sentence said twice (a pull quote) is kept once; a label or a name is furniture every time.
    const sentence = countWords(key) >= 5;
    for (const element of sentence ? elements.slice(1) : elements) element.remove();
  }
}

/** Containers left with no text and no media after the rules above. */
export function pruneEmpty(root: DomElement): void {
  for (const element of all(root, 'div, section, ul, ol, li, p, aside, dl, figure, span').reverse()) {
    if (hasText(element)) continue;
    if (first(element, 'img, picture, video, audio, iframe, svg, table, pre, hr, br')) continue;
    element.remove();
  }
}

/** All the rules, in the order that lets each see what the previous left. */
export function pruneArticle(root: DomElement): void {
  pruneNavigation(root);
  pruneCaptions(root);
  pruneTeasers(root);
  pruneLinkLists(root);
  pruneRepeated(root);
  pruneEmpty(root);
}
