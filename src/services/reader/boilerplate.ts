import { all, type DomDocument, type DomElement } from './dom.js';

/**
 * DOM clean-ups around Readability: what is never content (hidden or structural chrome), and the
 * code-language hint, which must survive Readability's class stripping.
 */

const HIDDEN =
  '[hidden], [aria-hidden="true"], [style*="display:none" i], [style*="display: none" i], [style*="visibility:hidden" i], [style*="visibility: hidden" i], template, dialog';

const NEVER_CONTENT =
  'script, style, noscript, template, iframe, svg, canvas, object, embed, form, button, select, input, textarea, link, meta';

const CHROME =
  'nav, header, footer, aside, [role="navigation" i], [role="banner" i], [role="contentinfo" i], [role="complementary" i], [role="search" i]';

const LANGUAGE = /(?:^|\s)(?:language|lang|highlight-source|brush:?)-?\s*([\w+#.-]+)/i;

export const removeAll = (root: DomDocument | DomElement, selector: string): void => {
  for (const element of all(root, selector)) element.remove();
};

/** Copies `class="language-x"` (on `pre` or its `code`) to `data-language` on the `pre`. */
export function markCodeLanguages(doc: DomDocument): void {
  for (const pre of all(doc, 'pre')) {
    const code = pre.querySelector('code');
    const source = `${pre.getAttribute('class') ?? ''} ${code?.getAttribute('class') ?? ''} ${pre.getAttribute('data-lang') ?? ''}`;
    const language = pre.getAttribute('data-lang') || LANGUAGE.exec(source)?.[1];
    if (language) pre.setAttribute('data-language', language.toLowerCase());
  }
}

/** Before Readability: drop what a reader never sees. */
export function removeHidden(doc: DomDocument): void {
  removeAll(doc, HIDDEN);
}

/** The fallback's view of a page: the body without chrome, scripts and forms. */
export function stripChrome(root: DomDocument | DomElement): void {
  removeAll(root, NEVER_CONTENT);
  removeAll(root, CHROME);
  removeAll(root, HIDDEN);
}

const BOILERPLATE_NAME =
  /(^|[\s_-])(share|sharing|social|newsletter|subscribe|subscription|related|recommend\w*|promo\w*|advert\w*|ads?|sponsor\w*|cookie\w*|popup|modal|breadcrumbs?|signup|outbrain|taboola)($|[\s_-])/i;

const AD_LABEL = /^\s*(advertisement|advertising|sponsored|sponsored content|anzeige|publicité|广告)\s*$/i;

const linkDensity = (element: DomElement): number => {
  const text = (element.textContent ?? '').trim().length;
  if (text === 0) return 1;
  const linked = all(element, 'a').reduce((sum, a) => sum + (a.textContent ?? '').trim().length, 0);
  return linked / text;
};

/**
 * After Readability: blocks named like page furniture (share bars, "related" lists, ad slots) that
 * are short or mostly links. The name alone is not enough: article bodies sometimes carry such
 * class names, so long prose is kept.
 */
export function removeFurniture(root: DomElement): void {
  for (const element of all(root, 'div, p, span, section, aside')) {
    // Ad slots labelled as such carry no article text.
    if (AD_LABEL.test(element.textContent ?? '')) element.remove();
  }
  for (const element of all(root, '[class], [id]')) {
    const name = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
    if (!BOILERPLATE_NAME.test(name)) continue;
    const text = (element.textContent ?? '').trim();
    if (text.length < 200 || linkDensity(element) > 0.5) element.remove();
  }
}

export function stripClasses(root: DomElement): void {
  for (const element of all(root, '[class], [id]')) {
    element.removeAttribute('class');
    element.removeAttribute('id');
  }
}
