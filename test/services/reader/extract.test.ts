import { Readability } from '@mozilla/readability';
import { describe, expect, it } from 'vitest';
import { all, parseDocument } from '../../../src/services/reader/dom.js';
import { extractContent, lazyVisibilityTest, type VisibilityTest } from '../../../src/services/reader/extract.js';

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
