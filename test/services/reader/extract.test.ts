import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../src/services/reader/dom.js';
import { extractContent } from '../../../src/services/reader/extract.js';

/** The byline through the whole extraction (ReaderReadability's byline test, reader-readability.ts). */

const prose = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('extractContent: bylines', () => {
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
