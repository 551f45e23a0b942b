import { describe, expect, it } from 'vitest';
import { removeFurniture } from '../../../src/services/reader/boilerplate.js';
import { type DomElement, parseDocument } from '../../../src/services/reader/dom.js';
import { readHtml } from '../../../src/services/reader/html-reader.js';
import { toMarkdown } from '../../../src/services/reader/markdown.js';
import { pruneRepeated, pruneTeasers } from '../../../src/services/reader/prune.js';
import type { ReturnFormat } from '../../../src/services/reader/types.js';

/** One test (or more) per pruning rule of prune.ts, and the short-article rule of extract.ts. */

const PROSE = [
  'The committee met on Tuesday and agreed to publish the full findings before the end of the month, the clerk said.',
  'Members had argued for weeks about whether the report should name the companies involved in the delays.',
  'In the end they chose to publish everything, with a summary for readers who have no time for the appendices.',
  'The chair said the decision was overdue and thanked the staff who had prepared the evidence over the winter.',
];

const article = (middle: string, extra = ''): string =>
  `<!doctype html><html><head><title>T</title></head><body><header><a href="/">Site</a></header><article><h1>Findings to be published</h1><p>${PROSE[0]}</p><p>${PROSE[1]}</p>${middle}<p>${PROSE[2]}</p><p>${PROSE[3]}</p></article>${extra}</body></html>`;

const read = (html: string, format: ReturnFormat = 'text'): string =>
  readHtml(html, 'https://example.org/a', { url: 'https://example.org/a', return_format: format }).result.content;

const keepsProse = (out: string) => {
  for (const sentence of PROSE) expect(out).toContain(sentence);
};

describe('pruning after Readability', () => {
  it('drops navigation landmarks inside the article (prev/next links)', () => {
    const out = read(
      article(
        '<nav class="post-nav"><a href="/p">Previous: Budget talks stall</a> <a href="/n">Next: Rail fares</a></nav>',
      ),
    );
    keepsProse(out);
    expect(out).not.toContain('Budget talks stall');
    expect(out).not.toContain('Rail fares');
  });

  it('drops a block of links ("More on this story") and the heading inside it', () => {
    const out = read(
      article(
        '<div class="more-on"><h3>More on this story</h3><ul><li><a href="/1">Councillors split over report</a></li><li><a href="/2">What the findings mean for you</a></li><li><a href="/3">Timeline of the inquiry</a></li></ul></div>',
      ),
    );
    keepsProse(out);
    for (const gone of ['More on this story', 'Councillors split', 'Timeline of the inquiry'])
      expect(out).not.toContain(gone);
  });

  it('keeps a list whose items carry prose beside their links (a list article)', () => {
    const items = ['Syncthing', 'Restic', 'Ripgrep', 'Pandoc']
      .map(
        (name) =>
          `<li><a href="https://${name.toLowerCase()}.example/">${name}</a> has been part of my week for years and has never lost a file or a day of work.</li>`,
      )
      .join('');
    const out = read(article(`<ol>${items}</ol>`));
    keepsProse(out);
    for (const name of ['Syncthing', 'Restic', 'Ripgrep', 'Pandoc']) expect(out).toContain(name);
  });

  it('keeps a page that is mostly a list of links: the list is the content', () => {
    const links = Array.from(
      { length: 12 },
      (_, i) => `<li><a href="/r${i}">Resource number ${i} for learning the tidal tables of the north coast</a></li>`,
    ).join('');
    const out = read(
      `<!doctype html><html><body><article><h1>Reading list</h1><p>${PROSE[0]}</p><ul>${links}</ul></article></body></html>`,
    );
    expect(out).toContain('Resource number 0');
    expect(out).toContain('Resource number 11');
  });

  it('drops teaser and label lines in several languages, keeps prose that starts with the same word', () => {
    const out = read(
      article(
        '<p><strong>READ MORE:</strong> <a href="/x">Bus gates to stay despite protests</a></p>' +
          '<p>Tags: <a href="/t/a">inquiry</a>, <a href="/t/b">council</a></p>' +
          '<p>相关阅读：<a href="/z">地铁三号线将于年底通车</a></p>' +
          '<p>اقرأ أيضا: <a href="/ar">افتتاح سوق جديد للمزارعين</a></p>' +
          '<p><a href="/c">MORE COMMENTARY »</a></p>' +
          '<p>Shares in the three companies named in the report fell sharply when the market opened on Wednesday morning.</p>',
      ),
    );
    keepsProse(out);
    for (const gone of ['READ MORE', 'Bus gates', 'Tags:', '相关阅读', '地铁', 'اقرأ', 'MORE COMMENTARY'])
      expect(out).not.toContain(gone);
    expect(out).toContain('Shares in the three companies');
  });

  it('drops the caption of a picture wrapper without figcaption, keeps the picture', () => {
    const html = article(
      '<div class="img-wrap"><img src="/u.jpg" alt="Union Street"><span class="img-desc">The new lane on Union Street. Picture: K. Elrick</span></div>' +
        '<figure><img src="/v.jpg" alt="Harbour"><div>Boats in the harbour at dawn (Getty)</div></figure>',
    );
    const text = read(html);
    keepsProse(text);
    expect(text).not.toContain('new lane on Union Street');
    expect(text).not.toContain('Boats in the harbour');
    const markdown = read(html, 'markdown');
    expect(markdown).toContain('](https://example.org/u.jpg)');
    expect(markdown).toContain('](https://example.org/v.jpg)');
  });

  it('keeps the text of a paragraph that holds a picture inline', () => {
    const out = read(
      article(
        '<p><img src="/t.jpg" alt="A turbine"> Maintenance crews lift each turbine once a year, when the neap tides leave the strait almost still.</p>',
      ),
    );
    expect(out).toContain('Maintenance crews lift each turbine once a year');
  });

  it('drops short lines repeated across items (buttons, ranks, names), keeps a repeated sentence once', () => {
    const posts = ['First', 'Second', 'Third']
      .map(
        (n) =>
          `<div class="post"><div class="who"><a href="/u/ann">ann_k</a><div>Regular poster</div></div><p>${n} answer: water the plants in the morning so that the leaves dry before the evening comes.</p><div class="buttons"><a href="#">Quote</a></div></div>`,
      )
      .join('');
    // A pull quote: a short sentence the page prints twice.
    const quote = '<p>We build harbours for the next century.</p>';
    const out = read(article(posts + quote + quote));
    keepsProse(out);
    expect(out).toContain('Third answer: water the plants');
    for (const gone of ['ann_k', 'Regular poster', 'Quote']) expect(out).not.toContain(gone);
    expect(out.split('for the next century').length - 1).toBe(1);
  });

  it('drops an ad label, and the pass costs nothing on a page without one', () => {
    expect(read(article('<div class="slot"><span>Advertisement</span></div>'))).not.toContain('Advertisement');
    keepsProse(read(article('')));
  });
});

describe('short articles', () => {
  const brief =
    'Police have closed the A96 between Huntly and Keith after a lorry overturned on Friday morning. No one was seriously hurt, officers said, but the road will stay shut until the evening.';
  const cards = Array.from(
    { length: 6 },
    (_, i) =>
      `<div class="card"><a href="/t${i}"><h3>Teaser headline number ${i} about the region</h3></a><p>One line ${i} of standfirst.</p></div>`,
  ).join('');

  it('keeps a brief that Readability found instead of the whole page of teasers', () => {
    const out = read(
      `<!doctype html><html><body><div class="main"><h1>A96 closed</h1><div class="text"><p>${brief}</p></div></div><div class="wide"><h2>Latest</h2>${cards}</div><div class="foot"><a href="/about">About us</a> <a href="/privacy">Privacy</a></div></body></html>`,
    );
    expect(out).toContain('Police have closed the A96');
    expect(out).not.toContain('Teaser headline');
    expect(out).not.toContain('Privacy');
  });

  it('still falls back to the whole page when it has much more prose than the pick', () => {
    const long = PROSE.map((p) => `<div>${p}</div>`).join('');
    const out = read(
      `<!doctype html><html><body><div class="a"><p>${brief}</p></div><div class="b">${long}${long}${long}</div></body></html>`,
    );
    expect(out).toContain('Police have closed the A96');
    expect(out).toContain(PROSE[3]);
  });
});

describe('work in proportion to the page', () => {
  /**
   * Steps through children while `run` works on the document of `body`: one per `nextSibling` read,
   * and the length of every `childNodes` list built (linkedom walks the children to build it).
   * Counted on the prototypes, so every node's reads count.
   */
  function childSteps(body: string, run: (body: DomElement) => void): number {
    const document = parseDocument(`<!doctype html><html><body>${body}</body></html>`);
    const element = document.body?.firstChild as DomElement;
    let steps = 0;
    const restore: (() => void)[] = [];
    for (const [name, weight] of [
      ['nextSibling', () => 1],
      ['childNodes', (value: unknown) => (value as ArrayLike<unknown>).length],
    ] as const) {
      let proto = Object.getPrototypeOf(element);
      while (proto && !Object.getOwnPropertyDescriptor(proto, name)) proto = Object.getPrototypeOf(proto);
      const descriptor = Object.getOwnPropertyDescriptor(proto, name) as PropertyDescriptor;
      const get = descriptor.get as () => unknown;
      Object.defineProperty(proto, name, {
        ...descriptor,
        get() {
          const value = get.call(this);
          steps += weight(value);
          return value;
        },
      });
      restore.push(() => Object.defineProperty(proto, name, descriptor));
    }
    try {
      run(document.body as DomElement);
    } finally {
      for (const undo of restore) undo();
    }
    return steps;
  }

  /** Steps for 4x the content over steps for 1x: 4 when linear, 16 when quadratic. */
  const growth = (make: (count: number) => string, run: (body: DomElement) => void): number =>
    childSteps(make(4000), run) / childSteps(make(1000), run);

  it('asks a parent of many inline children for its own text once a pass, not once a child', () => {
    // Each span's test read all the div's children: a 200 KB page of such spans took 80 s.
    const spans = (count: number) => `<div>${'<span>a</span>'.repeat(count)}</div>`;
    for (const prune of [pruneTeasers, pruneRepeated, removeFurniture])
      expect(growth(spans, prune), prune.name).toBeLessThan(6);
    const named = (count: number) => `<div>${'<span class="share">a</span>'.repeat(count)}</div>`;
    expect(growth(named, removeFurniture)).toBeLessThan(6);
  });

  it('turns a long table into Markdown in time linear in its rows (the GFM plugin patched)', () => {
    // The plugin read each row list once per row: a 100 KB table took 3.4 s.
    const table = (count: number) => `<table>${'<tr><td>a</td><td>b</td></tr>'.repeat(count)}</table>`;
    expect(growth(table, (body) => toMarkdown(body, { gfm: true }))).toBeLessThan(6);
  });
});
