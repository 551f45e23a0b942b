import { all, type DomElement } from './dom.js';

/** Image and link handling on the extracted article: the retain/data-URL options and the summaries. */

export const DATA_URL_PLACEHOLDER = 'blob';

export function applyImageOptions(root: DomElement, options: { retainImages: boolean; keepDataUrls: boolean }): void {
  if (!options.retainImages) {
    for (const element of all(root, 'img, picture, svg')) element.remove();
    return;
  }
  if (options.keepDataUrls) return;
  for (const img of all(root, 'img')) {
    // Data URLs can be megabytes of base64 that no reader of the text wants inline.
    if (/^data:/i.test(img.getAttribute('src') ?? '')) img.setAttribute('src', DATA_URL_PLACEHOLDER);
    img.removeAttribute('srcset');
  }
}

const addUnique = (map: Record<string, string>, key: string, value: string): void => {
  let name = key;
  for (let n = 2; name in map; n++) {
    if (map[name] === value) return;
    name = `${key} (${n})`;
  }
  map[name] = value;
};

const clean = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();

/** Alt text (or title) → absolute image URL. */
export function imagesSummary(root: DomElement): Record<string, string> {
  const images: Record<string, string> = {};
  let count = 0;
  for (const img of all(root, 'img[src]')) {
    const src = img.getAttribute('src') ?? '';
    if (!/^(https?|data):/i.test(src)) continue;
    count++;
    addUnique(images, clean(img.getAttribute('alt')) || clean(img.getAttribute('title')) || `Image ${count}`, src);
  }
  return images;
}

/** Link text (or title) → absolute URL. */
export function linksSummary(root: DomElement): Record<string, string> {
  const links: Record<string, string> = {};
  for (const a of all(root, 'a[href]')) {
    const href = a.getAttribute('href') ?? '';
    if (!/^https?:/i.test(href)) continue;
    addUnique(links, clean(a.textContent) || clean(a.getAttribute('title')) || href, href);
  }
  return links;
}
