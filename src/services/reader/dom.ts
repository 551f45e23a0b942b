import { parseHTML } from 'linkedom';

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
  const { document } = parseHTML(source) as unknown as { document: DomDocument };
  return document;
}

export const all = (root: DomDocument | DomElement, selector: string): DomElement[] =>
  Array.from(root.querySelectorAll(selector));

/** Words of a text, counting each CJK character as half a word since those scripts use no spaces. */
export function countWords(text: string): number {
  const cjk = text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ?? 0;
  const other = text
    .replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu, ' ')
    .match(/[\p{L}\p{N}]+/gu)?.length;
  return (other ?? 0) + Math.ceil(cjk / 2);
}
