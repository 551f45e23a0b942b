import TurndownService from 'turndown';
import { gfm } from '#turndown-plugin-gfm';
import { all, closest, type DomElement } from './dom.js';

/**
 * Article HTML to Markdown. GFM (pipe tables, strikethrough, task lists) unless `no_gfm`, which
 * leaves CommonMark: tables become their cell text, `<del>` plain text. Code blocks are fenced in
 * both dialects (fences are CommonMark), with the language that extraction kept in `data-language`.
 */

interface TurndownElement {
  nodeName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
}

function fence(code: string): string {
  let marker = '```';
  while (code.includes(marker)) marker += '`';
  return marker;
}

function build(gfmEnabled: boolean): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
    hr: '---',
  });
  if (gfmEnabled) service.use(gfm);
  service.addRule('fencedCodeWithLanguage', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const element = node as unknown as TurndownElement;
      const language = element.getAttribute('data-language') ?? '';
      const code = (element.textContent ?? '').replace(/\n$/, '');
      const marker = fence(code);
      return `\n\n${marker}${language}\n${code}\n${marker}\n\n`;
    },
  });
  // Readability sometimes leaves empty anchors around images' captions; they only add `[](url)`.
  service.addRule('dropEmptyLinks', {
    filter: (node) =>
      node.nodeName === 'A' &&
      !(node.textContent ?? '').trim() &&
      !(node as unknown as { querySelector(s: string): unknown }).querySelector('img'),
    replacement: () => '',
  });
  // Turndown pads list markers to four columns (`-   item`); one space is what people write.
  service.addRule('compactListItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const item = node as unknown as {
        parentNode: { nodeName: string; getAttribute(n: string): string | null; children: ArrayLike<unknown> } | null;
        nextSibling: unknown;
      };
      const parent = item.parentNode;
      let prefix = `${options.bulletListMarker} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1') || 1;
        prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n/gm, `\n${' '.repeat(prefix.length)}`);
      return prefix + body + (item.nextSibling && !/\n$/.test(body) ? '\n' : '');
    },
  });
  service.remove(['script', 'style', 'noscript']);
  service.escape = escapeWhereNeeded;
  return service;
}

const escapeAll = TurndownService.prototype.escape;
/** What turndown's escaping changes: these characters anywhere, and these others at the text's start. */
const ESCAPED_ANYWHERE = /[\\*`[\]_]/;
const ESCAPED_AT_START = /^[-+=#~>0-9]/;

/**
 * Turndown's escaping (its documented hook), but only for text that holds a character it escapes:
 * it runs thirteen replacements over every text node of the article, and most text nodes hold none
 * of those characters, so the text comes back as it was.
 */
export function escapeWhereNeeded(this: TurndownService, text: string): string {
  return ESCAPED_ANYWHERE.test(text) || ESCAPED_AT_START.test(text) ? escapeAll.call(this, text) : text;
}

const services = new Map<boolean, TurndownService>();

const TABLE_PARTS = 'td, th, tr, thead, tbody, tfoot, caption, colgroup, col';

/**
 * Brings a parsed element to the shape an HTML5 parser would have given turndown: adjacent text
 * nodes joined (the parser splits text at entities, and turndown escapes each node on its own), and
 * table cells and rows outside any table unwrapped (an HTML5 parser drops those tags, keeping their
 * content; the GFM table rules expect every cell to have its table).
 */
function prepare(root: DomElement): void {
  for (const part of all(root, TABLE_PARTS)) {
    if (part.parentElement && closest(part.parentElement, 'table')) continue;
    part.replaceWith(...Array.from(part.childNodes));
  }
  root.normalize();
}

/**
 * Takes the article's element itself (the document extraction parsed, not its HTML parsed a second
 * time), or an HTML string. The element is consumed: turndown would clone it before collapsing its
 * whitespace (a copy of every node, the conversion's largest cost after the rules themselves), so it
 * is handed a stand-in whose clone is the element itself; the caller reads nothing of it afterwards.
 */
export function toMarkdown(article: DomElement | string, options: { gfm: boolean }): string {
  let input: DomElement | string | { nodeType: number; cloneNode(): DomElement } = article;
  if (typeof article !== 'string') {
    prepare(article);
    input = { nodeType: article.nodeType, cloneNode: () => article };
  }
  let service = services.get(options.gfm);
  if (!service) {
    service = build(options.gfm);
    services.set(options.gfm, service);
  }
  return service
    .turndown(input as Parameters<TurndownService['turndown']>[0])
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
