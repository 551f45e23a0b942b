import { describe, expect, it } from 'vitest';
import { readHtml } from '../../../src/services/reader/html-reader.js';

const PROSE =
  'The committee met on Tuesday and agreed to publish the full findings before the end of the month. '.repeat(6);

const page = (body: string): string =>
  `<!doctype html><html><head><title>T</title></head><body><article><h1>T</h1><p>${PROSE}</p>${body}<p>${PROSE}</p></article></body></html>`;

const text = (body: string): string =>
  readHtml(page(body), 'https://example.org/a', { url: 'https://example.org/a', return_format: 'text' }).result.content;

describe('reader furniture rules', () => {
  it('drops captions, credits, bylines and tag lists', () => {
    const out = text(
      '<figure><img src="a.jpg" alt="Harbour at dawn"><figcaption>The harbour at dawn. Photo: J. Smith</figcaption></figure>' +
        '<div class="photo-credit">Getty Images</div><p class="byline">By Jane Doe</p>' +
        '<div class="post-tags">Tags: harbour, committee</div>',
    );
    expect(out).toContain('agreed to publish');
    for (const gone of ['harbour at dawn', 'Harbour at dawn', 'Getty', 'Jane Doe', 'Tags:'])
      expect(out).not.toContain(gone);
  });

  it('keeps links and spans inside a sentence whatever their class', () => {
    const out = text(
      '<p>The clerk was <a class="popup" href="#n1">rather elderly</a> and <span class="credit">kind</span>.</p>',
    );
    expect(out).toContain('The clerk was rather elderly and kind.');
  });

  it('keeps a block named like a caption when it holds a heading', () => {
    const out = text(
      '<div class="item no_caption"><h2>The mother described the last moments</h2><img src="x.jpg"></div>',
    );
    expect(out).toContain('The mother described the last moments');
  });
});
