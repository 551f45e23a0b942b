import { all, type DomDocument, type DomElement, descendants } from './dom.js';

/**
 * Rewrites every link and media URL against the page's final URL (or its `<base href>`), so the
 * content stays usable once it leaves the page; also promotes lazy-loading sources to `src`.
 */

/** The URL attributes of each element, by local name. */
const URL_ATTRIBUTES: Record<string, string[]> = {
  a: ['href'],
  area: ['href'],
  link: ['href'],
  img: ['src', 'srcset'],
  video: ['src', 'poster'],
  audio: ['src'],
  source: ['src', 'srcset'],
  iframe: ['src'],
  embed: ['src'],
  track: ['src'],
  q: ['cite'],
  blockquote: ['cite'],
};
/** `[href], [src], [srcset], [poster], [cite]`, tested without a selector (linkedom compiles each, dom.ts). */
const URL_NAMES = ['href', 'src', 'srcset', 'poster', 'cite'];
const hasUrl = (element: DomElement): boolean => URL_NAMES.some((name) => element.hasAttribute(name));

const LAZY_ATTRIBUTES = ['data-src', 'data-original', 'data-lazy-src', 'data-url', 'data-hi-res-src'];

export function documentBase(doc: DomDocument, pageUrl: string): string {
  // In the head, where HTML puts it: a query of the whole page would scan every element of the body.
  const href = (doc.head ?? doc).querySelector('base[href]')?.getAttribute('href');
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

const absolute = (value: string, base: string): string => {
  const trimmed = value.trim();
  if (!trimmed || trimmed.startsWith('#') || /^(data|javascript|mailto|tel|blob):/i.test(trimmed)) return trimmed;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return trimmed;
  }
};

const absoluteSrcset = (value: string, base: string): string =>
  value
    .split(',')
    .map((candidate) => {
      const [url = '', ...descriptor] = candidate.trim().split(/\s+/);
      return [absolute(url, base), ...descriptor].join(' ');
    })
    .join(', ');

const isPlaceholder = (src: string | null): boolean =>
  !src || /^data:image\/(gif|svg)/i.test(src) || /blank|spacer|placeholder/i.test(src);

/**
 * Before extraction: images whose `src` is a placeholder get their lazy-loading source; `images`:
 * the page's `img` elements, when the caller found them already.
 */
export function promoteLazyImages(doc: DomDocument, images: readonly DomElement[] = all(doc, 'img')): void {
  for (const img of images) {
    if (!isPlaceholder(img.getAttribute('src'))) continue;
    const lazy = LAZY_ATTRIBUTES.map((name) => img.getAttribute(name)).find((value) => value?.trim());
    if (lazy) img.setAttribute('src', lazy);
  }
}

/** Absolute URLs in a subtree (the extracted article: a fraction of the page), in one scan. */
export function absolutizeUrls(root: DomDocument | DomElement, base: string): void {
  for (const element of descendants(root, hasUrl)) {
    for (const attribute of URL_ATTRIBUTES[element.localName] ?? []) {
      const value = element.getAttribute(attribute);
      if (value === null) continue;
      element.setAttribute(attribute, attribute === 'srcset' ? absoluteSrcset(value, base) : absolute(value, base));
    }
  }
}
