import { parseHTML } from '#linkedom';
import { boundNesting } from './bound-nesting.js';

/**
 * The slice of the DOM the reader uses, typed here because the project compiles without the DOM lib
 * and linkedom's own types lean on it. linkedom implements all of these.
 */
export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  textContent: string | null;
  readonly parentNode: DomNode | null;
  readonly parentElement: DomElement | null;
  readonly childNodes: ArrayLike<DomNode>;
  readonly firstChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  remove(): void;
  cloneNode(deep?: boolean): DomNode;
  appendChild(node: DomNode): DomNode;
  /** Joins adjacent text nodes and drops empty ones, in the whole subtree. */
  normalize(): void;
}

export interface DomElement extends DomNode {
  readonly tagName: string;
  readonly localName: string;
  readonly children: ArrayLike<DomElement>;
  id: string;
  className: string;
  innerHTML: string;
  readonly outerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  replaceWith(...nodes: DomNode[]): void;
  closest(selector: string): DomElement | null;
}

export interface DomDocument extends DomNode {
  readonly documentElement: DomElement;
  readonly head: DomElement | null;
  readonly body: DomElement | null;
  title: string;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  createElement(tag: string): DomElement;
  createTextNode(text: string): DomNode;
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

export const isElement = (node: DomNode): node is DomElement => node.nodeType === ELEMENT_NODE;

/** linkedom needs a whole document; fragments and head-less pages are wrapped first. */
export function parseDocument(html: string): DomDocument {
  const source = /<html[\s>]/i.test(html)
    ? html
    : /<(head|body)[\s>]/i.test(html)
      ? `<!doctype html><html>${html}</html>`
      : `<!doctype html><html><head></head><body>${html}</body></html>`;
  const { document } = parseHTML(boundNesting(source, MAX_NESTING)) as unknown as { document: DomDocument };
  capNesting(document.documentElement, MAX_NESTING);
  return document;
}

/**
 * Elements nested deeper than this are flattened to their text. Readability's cost grows with the
 * cube of the nesting (each block's checks read every block below it): 2,300 nested divs, a 25 KB
 * page, took 180 s, and linkedom's innerHTML recurses until the stack runs out. The pages of the
 * labelled set nest 24 deep at most; browsers' parsers stop nesting at 512.
 */
export const MAX_NESTING = 256;

/**
 * Replaces the subtree of each element at depth `max` (the root at depth 1) that has child elements
 * by the subtree's text nodes, in document order: what is read of the page stays, the nesting goes.
 * One walk, without recursion.
 */
export function capNesting(root: DomElement, max: number): void {
  let node: DomNode | null = root;
  let depth = 1;
  while (node) {
    if (isElement(node)) {
      if (depth === max) flattenToText(node);
      else if (node.firstChild) {
        node = node.firstChild;
        depth++;
        continue;
      }
    }
    while (node && node !== root && !node.nextSibling) {
      node = node.parentNode;
      depth--;
    }
    node = node && node !== root ? node.nextSibling : null;
  }
}

function flattenToText(element: DomElement): void {
  const texts: DomNode[] = [];
  const nested: DomNode[] = [];
  for (let child = element.firstChild; child; child = child.nextSibling) if (isElement(child)) nested.push(child);
  if (nested.length === 0) return;
  let node: DomNode | null = element.firstChild;
  while (node) {
    if (node.nodeType === TEXT_NODE) texts.push(node);
    else if (node.firstChild) {
      node = node.firstChild;
      continue;
    }
    while (node && node !== element && !node.nextSibling) node = node.parentNode;
    node = node && node !== element ? node.nextSibling : null;
  }
  for (const text of texts) element.appendChild(text);
  for (const child of nested) child.remove();
}

/**
 * Elements under `root` (not `root` itself) that pass `test`, in document order, not entering a
 * `template`'s content: the elements linkedom's querySelectorAll would visit. linkedom compiles the
 * selector of every query, closest and querySelector call afresh (css-select: parse, compile), which
 * cost more than the match itself in the reader's per-block loops; a plain walk costs neither.
 */
export function descendants(
  root: DomDocument | DomElement,
  test: (element: DomElement) => boolean,
  firstOnly = false,
): DomElement[] {
  const found: DomElement[] = [];
  // A document's doctype node has no nextSibling in linkedom: start at its root element.
  let node: DomNode | null = 'documentElement' in root ? root.documentElement : root.firstChild;
  while (node) {
    if (isElement(node)) {
      if (test(node)) {
        found.push(node);
        if (firstOnly) return found;
      }
      const child = node.localName === 'template' ? null : node.firstChild;
      if (child) {
        node = child;
        continue;
      }
    }
    while (node && node !== root && !node.nextSibling) node = node.parentNode;
    node = node && node !== root ? node.nextSibling : null;
  }
  return found;
}

/**
 * The elements of the given (lower-case) tags under `root`, by tag, in document order: one walk for
 * several lists. A walk of a whole page costs about as much as a tenth of its parse.
 */
export function byTag(root: DomDocument | DomElement, tags: ReadonlySet<string>): Map<string, DomElement[]> {
  const found = new Map<string, DomElement[]>();
  for (const element of descendants(root, named(tags))) {
    const tag = element.localName.toLowerCase();
    const list = found.get(tag);
    if (list) list.push(element);
    else found.set(tag, [element]);
  }
  return found;
}

/** A selector that is only tag names (`p, div, li`), as the set of its names; else undefined. */
const TAG_LIST = /^\s*[a-z][a-z0-9]*(\s*,\s*[a-z][a-z0-9]*)*\s*$/i;
const tagLists = new Map<string, ReadonlySet<string> | undefined>();
function tagList(selector: string): ReadonlySet<string> | undefined {
  if (tagLists.has(selector)) return tagLists.get(selector);
  const names = TAG_LIST.test(selector)
    ? new Set(selector.split(',').map((name) => name.trim().toLowerCase()))
    : undefined;
  tagLists.set(selector, names);
  return names;
}

/** As css-select compares names in an HTML document: the local name, lower-cased. */
export const named =
  (names: ReadonlySet<string>) =>
  (element: DomElement): boolean =>
    names.has(element.localName.toLowerCase());

/** querySelectorAll as an array; a tag-list selector is matched by a walk, not compiled. */
export function all(root: DomDocument | DomElement, selector: string): DomElement[] {
  const names = tagList(selector);
  return names ? descendants(root, named(names)) : Array.from(root.querySelectorAll(selector));
}

/** querySelector; a tag-list selector is matched by a walk, not compiled. */
export function first(root: DomDocument | DomElement, selector: string): DomElement | null {
  const names = tagList(selector);
  return names ? (descendants(root, named(names), true)[0] ?? null) : root.querySelector(selector);
}

/** closest (the element itself or an ancestor); a tag-list selector is matched without compiling. */
export function closest(element: DomElement, selector: string): DomElement | null {
  const names = tagList(selector);
  if (!names) return element.closest(selector);
  for (let current: DomElement | null = element; current; current = current.parentElement)
    if (names.has(current.localName.toLowerCase())) return current;
  return null;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_ALL = new RegExp(CJK.source, 'gu');

/** Words of a text, counting each CJK character as half a word since those scripts use no spaces. */
export function countWords(text: string): number {
  // Most pages hold no CJK character: one test spares a second scan and a copy of the whole text.
  const cjk = CJK.test(text) ? (text.match(CJK_ALL)?.length ?? 0) : 0;
  const other = (cjk > 0 ? text.replace(CJK_ALL, ' ') : text).match(/[\p{L}\p{N}]+/gu)?.length;
  return (other ?? 0) + Math.ceil(cjk / 2);
}
