import { describe, expect, it } from 'vitest';
import {
  all,
  capNesting,
  closest,
  countWords,
  type DomElement,
  first,
  MAX_NESTING,
  parseDocument,
} from '../../../src/services/reader/dom.js';
import { readHtml } from '../../../src/services/reader/html-reader.js';
import {
  collapsedTextWithin,
  hasText,
  textMatches,
  trimmedTextWithin,
} from '../../../src/services/reader/subtree-text.js';

/**
 * The walks that replace linkedom's compiled selectors (dom.ts) and the short-text readers
 * (subtree-text.ts) must give exactly what the selectors and textContent give: extraction's output
 * depends on it.
 */

const PAGE = `<!doctype html><html><head><title>T</title><script>var a;</script></head><body>
<div id="a"><P>One <b>two</b></P><template><p>in a template</p><span>x</span></template>
<section><ul><li><a href="/1">first</a></li><li>  <span> </span> </li></ul></section>
<table><tr><td><p>cell <code>c</code></p></td></tr></table><pre><code>x = 1</code></pre></div>
<aside>  Advertisement  </aside></body></html>`;

const ids = (elements: ArrayLike<DomElement>) => Array.from(elements);

describe('selector walks', () => {
  const doc = parseDocument(PAGE);
  const body = doc.body as DomElement;

  it('all and first find what querySelectorAll and querySelector find, in order, outside templates', () => {
    for (const selector of ['p', 'p, span, li', 'script', 'td, th, tr', 'h1, h2', 'template', 'code']) {
      expect(all(doc, selector)).toEqual(ids(doc.querySelectorAll(selector)));
      expect(all(body, selector)).toEqual(ids(body.querySelectorAll(selector)));
      expect(first(body, selector)).toBe(body.querySelector(selector));
    }
  });

  it('closest finds what closest finds, the element itself included', () => {
    for (const element of all(body, 'p, code, b, li, span')) {
      for (const selector of ['pre, table, code', 'table', 'div', 'li, ul'])
        expect(closest(element, selector)).toBe(element.closest(selector));
    }
  });

  it('selectors that are not tag lists still go to linkedom', () => {
    expect(all(body, 'a[href]')).toEqual(ids(body.querySelectorAll('a[href]')));
    expect(first(body, '#a > p')).toBe(body.querySelector('#a > p'));
  });
});

describe('short text of a subtree', () => {
  const doc = parseDocument(PAGE);
  const text = (element: DomElement) => (element.textContent ?? '').replace(/\s+/g, ' ').trim();

  it('gives the collapsed or trimmed text up to the limit, and nothing past it', () => {
    for (const element of all(doc, 'div, p, section, ul, li, table, aside, pre, span')) {
      const full = text(element);
      const trimmed = (element.textContent ?? '').trim();
      for (const max of [0, 3, 5, 12, 40, 1000]) {
        expect(collapsedTextWithin(element, max)).toBe(full.length <= max ? full : undefined);
        expect(trimmedTextWithin(element, max)).toBe(trimmed.length <= max ? trimmed : undefined);
      }
      expect(hasText(element)).toBe(full.length > 0);
    }
  });

  it('finds a word in the text as textContent has it, also when it straddles two text nodes', () => {
    const split = parseDocument('<p>Adver<b>tise</b>ment</p><p>sponsor<i>ed</i> by</p><p>spons ored</p>');
    const word = /advertis|sponsored/i;
    for (const element of [...all(doc, 'div, p, section, ul, li, table, aside, pre, span'), ...all(split, 'p, b')])
      expect(textMatches(element, word, 9)).toBe(word.test(element.textContent ?? ''));
    expect(all(split, 'p').map((p) => textMatches(p, word, 9))).toEqual([true, true, false]);
  });
});

describe('word count', () => {
  it('counts words, and each CJK character as half a word, splitting words at CJK characters', () => {
    const counts = ['', 'two words', "it's 2026", 'a漢b', '漢字かなカナ한글 abc', '⼀x'].map(countWords);
    expect(counts).toEqual([0, 2, 3, 3, 5, 2]);
  });
});

describe('nesting past the cap', () => {
  it('flattens the subtree of an element at the cap to its text, in order, and leaves the rest', () => {
    const doc = parseDocument(
      '<div id="top"><p>kept <b>bold</b></p><section><div id="cap">a<div>b<span>c</span></div>d<i>e</i></div></section></div>',
    );
    const top = doc.querySelector('#top') as DomElement;
    capNesting(top, 3);
    const cap = doc.querySelector('#cap') as DomElement;
    expect(cap.children.length).toBe(0);
    expect(cap.textContent).toBe('abcde');
    // Elements above the cap, and their own children at the cap without elements below, stay.
    expect((doc.querySelector('p') as DomElement).innerHTML).toBe('kept <b>bold</b>');
  });

  it('reads a page nested far past the cap, with its text, and without the stack running out', () => {
    const depth = 5000; // 2,300 took 180 s before the cap; 9,000 ran linkedom's innerHTML out of stack
    const html = `<!doctype html><html><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}<p>The text at the bottom of a very deep page, which the reader must still return.</p>${'</div>'.repeat(depth)}</body></html>`;
    const out = readHtml(html, 'https://example.org/deep', { url: 'https://example.org/deep', return_format: 'text' });
    expect(out.result.content).toContain('The text at the bottom of a very deep page');
    const doc = parseDocument(html);
    let deepest = 1; // html, then body and the divs
    for (let node: DomElement | null = doc.body; node; node = node.children[0] ?? null) deepest++;
    expect(deepest).toBe(MAX_NESTING);
  });
});
