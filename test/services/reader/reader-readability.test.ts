import { Readability } from '@mozilla/readability';
import { describe, expect, it } from 'vitest';
import { all, type DomDocument, parseDocument } from '../../../src/services/reader/dom.js';
import {
  missingReadabilityMethods,
  READABILITY_METHODS,
  type ReadabilityInternals,
  ReaderReadability,
} from '../../../src/services/reader/reader-readability.js';

/**
 * ReaderReadability overrides five of Readability's per-element tests with ones that read an
 * element's text or style only when they can matter. The answers must stay Readability's: each is
 * compared here with the published class's own on the same document.
 */

const prose = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

type Internals = ReadabilityInternals & {
  log: (...args: unknown[]) => void;
  parse(): { content: unknown } | null;
};
const stock = (doc: DomDocument, options = {}) => new Readability(doc as never, options) as unknown as Internals;
const ours = (doc: DomDocument, options = {}) => new ReaderReadability(doc, options) as unknown as Internals;

describe('ReaderReadability: the methods it overrides', () => {
  it('are all still Readability methods (a Readability upgrade that renames one fails here)', () => {
    expect(missingReadabilityMethods()).toEqual([]);
    const base = Readability.prototype as unknown as Record<string, unknown>;
    for (const name of READABILITY_METHODS) {
      expect(typeof base[name], name).toBe('function');
      expect(Object.hasOwn(ReaderReadability.prototype, name), name).toBe(true);
    }
    expect((stock(parseDocument('<p>x</p>')).REGEXPS as { byline?: unknown }).byline).toBeInstanceOf(RegExp);
  });

  it('leaves Readability itself as published (nothing is set on its prototype)', () => {
    const reader = ours(parseDocument('<p>x</p>'));
    for (const name of READABILITY_METHODS) {
      expect(Object.hasOwn(reader, name), name).toBe(false);
      expect(reader[name]).not.toBe((Readability.prototype as unknown as Internals)[name]);
    }
  });
});

describe('ReaderReadability: byline test', () => {
  it('answers as Readability does for named, unnamed, empty and long candidates', () => {
    const doc = parseDocument(`<html><body><p rel="author">Jane Doe</p><p itemprop="author">${prose(40)}</p>
      <p itemprop="author"> </p><p class="byline">By Jane</p><p class="plain">Jane</p><span>x</span></body></html>`);
    const elements = Array.from(all(doc, '*'));
    const answers = (reader: Internals) =>
      elements.map((element) =>
        reader._isValidByline(element, `${element.className ?? ''} ${element.getAttribute('id') ?? ''}`),
      );
    const want = answers(stock(doc));
    expect(answers(ours(doc))).toEqual(want);
    expect(want.filter(Boolean).length).toBe(2);
  });
});

describe('ReaderReadability: visibility test', () => {
  it('answers as Readability does, with and without a style attribute', () => {
    const doc = parseDocument(`<html><body><p>plain</p><p hidden>hidden</p><p aria-hidden="true">aria</p>
      <p aria-hidden="false">shown</p><div aria-hidden="TRUE">upper case</div>
      <img class="mwe-math-fallback-image-inline" aria-hidden="true" src="x.png">
      <img class="other" aria-hidden="true" src="y.png"><p style="display:none">none</p>
      <p style="visibility: hidden">invisible</p><p style="color: red" hidden>red</p><p style="">empty</p>
      <p style="display: block" aria-hidden="true">block</p><svg aria-hidden="true"><path d="M0 0"/></svg>
      <svg class="fallback-image" aria-hidden="true"><g></g></svg></body></html>`);
    const elements = Array.from(all(doc, '*'));
    expect(elements.length).toBeGreaterThan(15);
    const answers = (reader: Internals) => elements.map((element) => Boolean(reader._isProbablyVisible(element)));
    expect(answers(ours(doc))).toEqual(answers(stock(doc)));
    expect(answers(stock(doc)).filter((visible) => !visible).length).toBeGreaterThan(5);
  });
});

describe('ReaderReadability: emptiness test', () => {
  it('answers as Readability does for blocks with text, whitespace, breaks, comments and CDATA', () => {
    const doc = parseDocument(`<html><body><div id="outer"><section><h2> </h2><h3>Title</h3>
      <div>\u00a0\u2003 \n</div><div><br><hr></div><div><br><span></span></div><div><!-- comment --></div>
      <header><p>  <b> </b> </p></header><div> <i>x</i></div><div><br>text after a break</div>
      <div>\ufeff</div><div><img src="a.png"></div><h1>\u200b</h1><div><svg><![CDATA[ data ]]></svg></div>
      </section></div></body></html>`);
    const nodes = [...Array.from(all(doc, '*')), ...Array.from(doc.body?.childNodes ?? [])];
    expect(nodes.length).toBeGreaterThan(20);
    const answers = (reader: Internals) => nodes.map((node) => Boolean(reader._isElementWithoutContent(node as never)));
    const want = answers(stock(doc));
    expect(answers(ours(doc))).toEqual(want);
    const empty = want.filter(Boolean).length;
    expect(empty).toBeGreaterThan(3);
    expect(empty).toBeLessThan(nodes.length - 5);
  });
});

describe("ReaderReadability: the 'Grabbed' log line", () => {
  const page = `<html><head><title>T</title></head><body><article><p>${prose(80)}</p><p>${prose(60)}</p></article></body></html>`;
  const parsed = (make: typeof stock) => {
    const reader = make(parseDocument(page), { serializer: (element: unknown) => element });
    const lines: string[] = [];
    reader.log = (...args: unknown[]) => lines.push(args.map(String).join(' '));
    const article = reader.parse()?.content as { innerHTML: string } | undefined;
    return { lines: lines.filter((line) => line.startsWith('Grabbed:')), article };
  };

  it('is still built between _grabArticle and _postProcessContent (a Readability upgrade that moves it fails here)', () => {
    const { lines, article } = parsed(stock);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('word79');
    expect(lines[0]).toBe(`Grabbed: ${article?.innerHTML}`);
  });

  it('gets no HTML from ours, and the article keeps its own HTML after parse()', () => {
    const { lines, article } = parsed(ours);
    expect(lines).toEqual(['Grabbed: ']);
    expect(article && Object.hasOwn(article, 'innerHTML')).toBe(false);
    expect(article?.innerHTML).toBe(parsed(stock).article?.innerHTML);
    expect(article?.innerHTML).toContain('word79');
  });
});

describe('ReaderReadability: tag query', () => {
  it('finds the elements Readability finds, those it made with upper-case names included', () => {
    const doc = parseDocument(`<html><body><div><p>a</p><section><p>b</p><div><span>c</span></div></section>
      <svg><foreignObject><p>in svg</p></foreignObject></svg><P>upper</P><table><tr><td><p>cell</p></td></tr></table></div>
      </body></html>`);
    const made = doc.createElement('DIV');
    made.appendChild(doc.createElement('P'));
    doc.body?.appendChild(made);
    expect(made.localName).toBe('DIV');
    const theirs = stock(doc);
    const mine = ours(doc);
    const roots = [doc, ...Array.from(all(doc, 'div, section, table'))];
    for (const tags of [['p'], ['div'], ['td'], ['span'], ['h1'], ['p', 'div']]) {
      for (const root of roots) {
        const want = Array.from(theirs._getAllNodesWithTag(root, tags));
        expect(Array.from(mine._getAllNodesWithTag(root, tags))).toEqual(want);
      }
    }
    expect(Array.from(mine._getAllNodesWithTag(doc, ['div']))).toContain(made);
  });
});

describe('ReaderReadability: a whole parse', () => {
  it('picks the same article as Readability', () => {
    const page = `<html><head><title>T</title></head><body><nav><a href="/">Home</a></nav><article>
      <p class="byline">By Jane Doe</p><p>${prose(80)}</p><div style="display:none">hidden</div>
      <table><tr><td>${prose(10)}</td></tr></table><div aria-hidden="true">gone</div><p>${prose(60)}</p>
      </article><footer>footer</footer></body></html>`;
    const html = (make: typeof stock) => make(parseDocument(page)).parse()?.content;
    expect(html(ours)).toBe(html(stock));
    expect(String(html(ours))).toContain('word79');
  });
});
