import { all, type DomDocument } from './dom.js';

/**
 * Rewrites every link and media URL against the page's final URL (or its `<base href>`), so the
 * content stays usable once it leaves the page; also promotes lazy-loading sources to `src`.
 */

const URL_ATTRIBUTES: [string, string][] = [
  ['a[href]', 'href'],
  ['area[href]', 'href'],
  ['img[src]', 'src'],
  ['video[src]', 'src'],
  ['video[poster]', 'poster'],
  ['audio[src]', 'src'],
  ['source[src]', 'src'],
  ['iframe[src]', 'src'],
  ['embed[src]', 'src'],
  ['track[src]', 'src'],
  ['link[href]', 'href'],
  ['q[cite]', 'cite'],
  ['blockquote[cite]', 'cite'],
];

const LAZY_ATTRIBUTES = ['data-src', 'data-original', 'data-lazy-src', 'data-url', 'data-hi-res-src'];

export function documentBase(doc: DomDocument, pageUrl: string): string {
  const href = doc.querySelector('base[href]')?.getAttribute('href');
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

export function absolutizeDocument(doc: DomDocument, pageUrl: string): string {
  const base = documentBase(doc, pageUrl);
  for (const img of all(doc, 'img')) {
    if (!isPlaceholder(img.getAttribute('src'))) continue;
    const lazy = LAZY_ATTRIBUTES.map((name) => img.getAttribute(name)).find((value) => value?.trim());
    if (lazy) img.setAttribute('src', lazy);
  }
  for (const [selector, attribute] of URL_ATTRIBUTES) {
    for (const element of all(doc, selector)) {
      element.setAttribute(attribute, absolute(element.getAttribute(attribute) ?? '', base));
    }
  }
  for (const element of all(doc, 'img[srcset], source[srcset]')) {
    element.setAttribute('srcset', absoluteSrcset(element.getAttribute('srcset') ?? '', base));
  }
  return base;
}
