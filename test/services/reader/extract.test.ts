import { Readability } from '@mozilla/readability';
import { describe, expect, it } from 'vitest';
import { all, parseDocument } from '../../../src/services/reader/dom.js';
import {
  type EmptinessTest,
  extractContent,
  type GrabbedLog,
  lazyEmptinessTest,
  lazyVisibilityTest,
  quietGrabbedLog,
  type TagQuery,
  taggedByName,
  type VisibilityTest,
} from '../../../src/services/reader/extract.js';

/**
 * extract.ts replaces Readability's byline and visibility tests on its own instance with ones that
 * read an element's text or style only when they can matter. The answers must stay Readability's.
 */

const prose = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe("Readability's byline test (extract.ts)", () => {
  it('is still where extract.ts looks for it (a Readability upgrade that moves it fails here)', () => {
    const reader = new Readability(parseDocument('<p>x</p>') as never) as unknown as {
      _isValidByline?: unknown;
      REGEXPS?: { byline?: unknown };
    };
    expect(typeof reader._isValidByline).toBe('function');
    expect(reader.REGEXPS?.byline).toBeInstanceOf(RegExp);
  });

  it('takes out a short byline and keeps a long block named like one, as Readability does', () => {
    const long = `Written by ${prose(30)}`;
    const page = `<html><head><title>T</title></head><body><article>
      <p class="writtenby">Written by Jane Doe</p>
      <p>${prose(80)}</p><p class="writtenby">${long}</p><p>${prose(60)}</p>
    </article></body></html>`;
    const text = extractContent(() => parseDocument(page)).root.textContent ?? '';
    expect(text).not.toContain('Jane Doe');
    expect(text).toContain(long);
  });

  it('leaves the byline to a later element when the first named one is empty or too long', () => {
    const page = `<html><body><article><p rel="author"> </p><p itemprop="author">${prose(40)}</p>
      <p>${prose(80)}</p><span rel="author">Jane Doe</span><p>${prose(60)}</p></article></body></html>`;
    const text = extractContent(() => parseDocument(page)).root.textContent ?? '';
    expect(text).toContain(prose(40));
    expect(text).not.toContain('Jane Doe');
  });
});

describe("Readability's visibility test (extract.ts)", () => {
  it('answers as Readability does, with and without a style attribute', () => {
    const doc = parseDocument(`<html><body><p>plain</p><p hidden>hidden</p><p aria-hidden="true">aria</p>
      <p aria-hidden="false">shown</p><div aria-hidden="TRUE">upper case</div>
      <img class="mwe-math-fallback-image-inline" aria-hidden="true" src="x.png">
      <img class="other" aria-hidden="true" src="y.png"><p style="display:none">none</p>
      <p style="visibility: hidden">invisible</p><p style="color: red" hidden>red</p><p style="">empty</p>
      <p style="display: block" aria-hidden="true">block</p><svg aria-hidden="true"><path d="M0 0"/></svg>
      <svg class="fallback-image" aria-hidden="true"><g></g></svg></body></html>`);
    const stock = new Readability(doc as never) as unknown as VisibilityTest;
    const lazy = new Readability(doc as never) as unknown as VisibilityTest;
    lazyVisibilityTest(lazy);
    expect(typeof stock._isProbablyVisible).toBe('function');
    const elements = Array.from(all(doc, '*'));
    expect(elements.length).toBeGreaterThan(15);
    const answers = (reader: VisibilityTest) =>
      elements.map((element) => Boolean(reader._isProbablyVisible?.(element)));
    expect(answers(lazy)).toEqual(answers(stock));
    expect(answers(stock).filter((visible) => !visible).length).toBeGreaterThan(5);
  });
});

describe("Readability's emptiness test (extract.ts)", () => {
  it('answers as Readability does for blocks with text, whitespace, breaks, comments and CDATA', () => {
    const doc = parseDocument(`<html><body><div id="outer"><section><h2> </h2><h3>Title</h3>
      <div>\u00a0\u2003 \n</div><div><br><hr></div><div><br><span></span></div><div><!-- comment --></div>
      <header><p>  <b> </b> </p></header><div> <i>x</i></div><div><br>text after a break</div>
      <div>\ufeff</div><div><img src="a.png"></div><h1>\u200b</h1><div><svg><![CDATA[ data ]]></svg></div>
      </section></div></body></html>`);
    const stock = new Readability(doc as never) as unknown as EmptinessTest;
    const lazy = new Readability(doc as never) as unknown as EmptinessTest;
    lazyEmptinessTest(lazy);
    expect(typeof stock._isElementWithoutContent).toBe('function');
    const nodes = [...Array.from(all(doc, '*')), ...Array.from(doc.body?.childNodes ?? [])];
    expect(nodes.length).toBeGreaterThan(20);
    const answers = (reader: EmptinessTest) =>
      nodes.map((node) => Boolean(reader._isElementWithoutContent?.(node as never)));
    expect(answers(lazy)).toEqual(answers(stock));
    const empty = answers(stock).filter(Boolean).length;
    expect(empty).toBeGreaterThan(3);
    expect(empty).toBeLessThan(nodes.length - 5);
  });
});

describe("Readability's 'Grabbed' log line (extract.ts)", () => {
  const page = `<html><head><title>T</title></head><body><article><p>${prose(80)}</p><p>${prose(60)}</p></article></body></html>`;
  type Logged = GrabbedLog & { log: (...args: unknown[]) => void; parse(): { content: unknown } | null };
  const parsed = (quiet: boolean) => {
    const reader = new Readability(parseDocument(page) as never, {
      serializer: (element) => element as unknown as string,
    }) as unknown as Logged;
    const lines: string[] = [];
    reader.log = (...args) => lines.push(args.map(String).join(' '));
    if (quiet) quietGrabbedLog(reader);
    const article = reader.parse()?.content as { innerHTML: string } | undefined;
    return { lines: lines.filter((line) => line.startsWith('Grabbed:')), article };
  };

  it('is still built between _grabArticle and _postProcessContent (a Readability upgrade that moves it fails here)', () => {
    const { lines, article } = parsed(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('word79');
    expect(lines[0]).toBe(`Grabbed: ${article?.innerHTML}`);
  });

  it('gets no HTML on our instance, and the article keeps its own HTML after parse()', () => {
    const { lines, article } = parsed(true);
    expect(lines).toEqual(['Grabbed: ']);
    expect(article && Object.hasOwn(article, 'innerHTML')).toBe(false);
    expect(article?.innerHTML).toBe(parsed(false).article?.innerHTML);
    expect(article?.innerHTML).toContain('word79');
  });
});

describe("Readability's tag query (extract.ts)", () => {
  it('finds the elements Readability finds, those it made with upper-case names included', () => {
    const doc = parseDocument(`<html><body><div><p>a</p><section><p>b</p><div><span>c</span></div></section>
      <svg><foreignObject><p>in svg</p></foreignObject></svg><P>upper</P><table><tr><td><p>cell</p></td></tr></table></div>
      </body></html>`);
    const made = doc.createElement('DIV');
    made.appendChild(doc.createElement('P'));
    doc.body?.appendChild(made);
    expect(made.localName).toBe('DIV');
    const stock = new Readability(doc as never) as unknown as TagQuery;
    const named = new Readability(doc as never) as unknown as TagQuery;
    taggedByName(named);
    expect(typeof stock._getAllNodesWithTag).toBe('function');
    const roots = [doc, ...Array.from(all(doc, 'div, section, table'))];
    for (const tags of [['p'], ['div'], ['td'], ['span'], ['h1'], ['p', 'div']]) {
      for (const root of roots) {
        const want = Array.from(stock._getAllNodesWithTag?.(root, tags) ?? []);
        expect(Array.from(named._getAllNodesWithTag?.(root, tags) ?? [])).toEqual(want);
      }
    }
    expect(Array.from(named._getAllNodesWithTag?.(doc, ['div']) ?? [])).toContain(made);
  });
});
