import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReaderService, type ReaderCache } from '../../../src/services/reader/index.js';
import { type FixtureServer, startFixtureServer } from './fixture-server.js';

let server: FixtureServer;
const reader = createReaderService({ allowHosts: ['127.0.0.1'] });
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await reader.close();
  await server.close();
});
const page = (name: string) => `${server.origin}/fixtures/${name}`;

const BOILERPLATE = [
  'newsletter',
  'celebrity',
  'Cookie settings',
  'Shady Deals',
  'Share on Twitter',
  'adtech',
  'Trending',
];

describe('the article page', () => {
  it('markdown: the body without chrome, with GFM tables, fenced code, absolute URLs', async () => {
    const { result } = await reader.read({ url: page('article.html') });
    const md = result.content;
    expect(md).toContain('forty metres');
    expect(md).toContain('neap tides');
    for (const text of BOILERPLATE) expect(md).not.toContain(text);
    expect(md).toMatch(/\| Month \| Megawatt hours \|\n\| --- \| --- \|\n\| January \| 1840 \|/);
    expect(md).toContain('```python\ntotal = sum(month.mwh for month in year)\nprint(total)\n```');
    expect(md).toContain('~~slow~~');
    expect(md).toMatch(/^- Depth: forty metres$/m);
    expect(md).toContain(`![A turbine lifted from the water](${server.origin}/img/turbine.jpg)`);
    expect(md).toContain('[full engineering report](https://example.org/report.pdf)');
    expect(md).toContain(`[summary notes](${server.origin}/fixtures/notes/summary.html)`);
    expect(md).toContain('![Tiny chart](blob)');
    expect(md).not.toContain('data:image');
  });

  it('metadata, stylesheets and the published time', async () => {
    const { result } = await reader.read({ url: page('article.html') });
    expect(result.title).toBe('Tidal Energy Reaches the Orkney Islands');
    expect(result.description).toBe('A field report on tidal turbines in Orkney.');
    expect(result.url).toBe(page('article.html'));
    expect(result.metadata).toEqual({
      keywords: 'tidal, energy, orkney',
      viewport: 'width=device-width, initial-scale=1',
      description: 'A field report on tidal turbines in Orkney.',
      'format-detection': 'telephone=no',
    });
    expect(result.external.stylesheet).toEqual({
      [`${server.origin}/css/site.css`]: { type: 'text/css' },
      'https://cdn.example.org/fonts.css': { type: 'text/css' },
    });
    expect(result.publishedTime).toBe('2026-10-02T08:00:00Z');
    expect(result.images).toBeUndefined();
    expect(result.links).toBeUndefined();
  });

  it('text: readable paragraphs, no markup', async () => {
    const { content } = (await reader.read({ url: page('article.html'), return_format: 'text', retain_images: false }))
      .result;
    expect(content).toContain('forty metres');
    expect(content).toMatch(/hunt there\.\n\nEach turbine/);
    for (const marker of ['##', '![', '<p>', '```', '|']) expect(content).not.toContain(marker);
    for (const text of BOILERPLATE) expect(content).not.toContain(text);
    expect(content).toContain('January\t1840');
  });

  it('html: the cleaned article', async () => {
    const { content } = (await reader.read({ url: page('article.html'), return_format: 'html' })).result;
    expect(content).toContain('<table>');
    expect(content).toContain('<pre data-language="python">');
    expect(content).not.toMatch(/<(nav|footer|script|aside)/);
    for (const text of BOILERPLATE) expect(content).not.toContain(text);
  });

  it('both summaries', async () => {
    const { result } = await reader.read({
      url: page('article.html'),
      with_images_summary: true,
      with_links_summary: true,
    });
    // The data-URL image has no address to report unless keep_img_data_url is set.
    expect(result.images).toEqual({ 'A turbine lifted from the water': `${server.origin}/img/turbine.jpg` });
    expect(result.links).toEqual({
      'full engineering report': 'https://example.org/report.pdf',
      'summary notes': `${server.origin}/fixtures/notes/summary.html`,
    });
  });

  it('retain_images false drops images; keep_img_data_url keeps data URLs', async () => {
    const { result: dropped } = await reader.read({
      url: page('article.html'),
      retain_images: false,
      with_images_summary: true,
    });
    expect(dropped.content).not.toContain('![');
    expect(dropped.images).toEqual({});
    const { result: kept } = await reader.read({ url: page('article.html'), keep_img_data_url: true });
    expect(kept.content).toContain('![Tiny chart](data:image/png;base64,');
    const { result: summary } = await reader.read({
      url: page('article.html'),
      keep_img_data_url: true,
      with_images_summary: true,
    });
    expect(summary.images?.['Tiny chart']).toMatch(/^data:image\/png;base64,/);
  });

  it('no_gfm gives CommonMark: no pipe tables, no strikethrough, fenced code kept', async () => {
    const { content } = (await reader.read({ url: page('article.html'), no_gfm: true })).result;
    expect(content).not.toContain('| --- |');
    expect(content).not.toContain('~~');
    expect(content).toContain('January');
    expect(content).toContain('```python');
  });
});

describe('charsets', () => {
  it.each([
    ['gbk.html.bin', '', '海峡每小时流过的水比欧洲任何一条河流都多', '潮汐能源到达奥克尼群岛'],
    ['shift_jis.html.bin', '', '技術者たちはそこで狩りをするアザラシ', '潮力発電がオークニー諸島に到達'],
    ['windows-1252.html.bin', '', 'déplace plus d’eau chaque heure', 'Énergie marémotrice à Orkney'],
    ['windows-1252.html.bin', 'windows-1252', 'déplace plus d’eau chaque heure', 'Énergie marémotrice à Orkney'],
    ['gbk.html.bin', 'gb18030', '海峡每小时流过的水比欧洲任何一条河流都多', '潮汐能源到达奥克尼群岛'],
  ])('%s (header charset %s)', async (name, charset, body, title) => {
    const url = `${page(name)}${charset ? `?charset=${charset}` : ''}`;
    const { result } = await reader.read({ url });
    expect(result.content).toContain(body);
    expect(result.title).toBe(title);
    expect(result.content).not.toContain('\ufffd');
  });
});

describe('URLs and dates', () => {
  it('resolves relative URLs against <base href>', async () => {
    const { result } = await reader.read({
      url: page('base-href.html'),
      with_links_summary: true,
      with_images_summary: true,
    });
    expect(result.links).toMatchObject({
      'second chapter': 'https://docs.example.com/guide/chapter-2.html',
      index: 'https://docs.example.com/index.html',
      questions: 'https://docs.example.com/faq/',
    });
    expect(result.images).toEqual({ 'Link resolution diagram': 'https://docs.example.com/guide/images/diagram.png' });
  });

  it('resolves against the final URL after redirects, and reads JSON-LD dates', async () => {
    const url = `${server.origin}/redirect?to=${encodeURIComponent('/fixtures/relative.html')}`;
    const { result } = await reader.read({ url, with_links_summary: true });
    expect(result.url).toBe(page('relative.html'));
    expect(result.links).toEqual({
      'sibling page': `${server.origin}/fixtures/sibling.html`,
      'root page': `${server.origin}/root.html`,
    });
    expect(result.content).toContain(`![Pier at dawn](${server.origin}/fixtures/pics/photo.jpg)`);
    expect(result.publishedTime).toBe('2025-03-14T09:26:53+01:00');
  });
});

describe('other content types', () => {
  it('plain text as it is', async () => {
    const { result } = await reader.read({ url: page('notes.txt') });
    expect(result.content).toBe(
      'Plain notes\n\nThe first line of a plain text file.\nThe second line, with a tab\there.\n',
    );
  });

  it('JSON, fenced in markdown and raw in text', async () => {
    const { result: md } = await reader.read({ url: page('data.json') });
    expect(md.content).toMatch(/^```json\n\{ "name": "turbine"/);
    const { result: text } = await reader.read({ url: page('data.json'), return_format: 'text' });
    expect(JSON.parse(text.content)).toMatchObject({ depth_m: 40 });
  });

  it('PDF to text', async () => {
    const { result } = await reader.read({ url: `${server.origin}/report.pdf` });
    expect(result.content).toContain('Tidal report in PDF form');
    expect(result.title).toBe('Turbine Report');
  });
});

describe('cache hook', () => {
  const store = new Map<string, { value: string; ttl: number }>();
  const cache: ReaderCache = {
    get: async (key) => store.get(key)?.value,
    set: async (key, value, ttl) => void store.set(key, { value, ttl }),
  };
  const cached = createReaderService({ allowHosts: ['127.0.0.1'], cache, cacheTtlSeconds: 60 });
  afterAll(() => cached.close());

  it('serves a repeat from the cache, keyed by the options, and no_cache reads afresh and stores nothing', async () => {
    const url = page('article.html');
    const { result: first } = await cached.read({ url });
    const hits = server.requests();
    expect((await cached.read({ url })).result).toEqual(first);
    expect(server.requests()).toBe(hits);
    expect([...store.values()][0]?.ttl).toBe(60);
    // The entry is the reply's JSON of the result, handed back as bytes for the route to write.
    const hit = await cached.read({ url });
    expect(hit.result).toEqual(first);
    expect(new TextDecoder().decode(hit.json)).toBe([...store.values()][0]?.value);
    expect(JSON.parse(new TextDecoder().decode(hit.json))).toEqual(first);

    await cached.read({ url, return_format: 'text' });
    expect(server.requests()).toBe(hits + 1);
    expect(store.size).toBe(2);

    await cached.read({ url, no_cache: true });
    expect(server.requests()).toBe(hits + 2);
    expect(store.size).toBe(2);

    const fresh = page('relative.html');
    await cached.read({ url: fresh, no_cache: true });
    expect(server.requests()).toBe(hits + 3);
    expect(store.size).toBe(2);
  });
});

describe('pages read for a client go into the search index', () => {
  const upserted: { url: string; title: string; content: string; published?: string }[][] = [];
  const logged: string[] = [];
  let failWrites = false;
  const indexing = createReaderService({
    allowHosts: ['127.0.0.1'],
    index: {
      pages: {
        upsert: async (docs) => {
          if (failWrites) throw new Error('index down');
          upserted.push(docs);
        },
      },
      log: { error: (_fields, message) => void logged.push(message) },
    },
  });
  afterAll(() => indexing.close());

  it("a client's read adds its page; a read that is not a client's (a crawl) adds nothing", async () => {
    const { result } = await indexing.read({ url: page('article.html') }, { index: true });
    expect(upserted).toEqual([
      [{ url: result.url, title: result.title, content: result.content, published: '2026-10-02T08:00:00Z' }],
    ]);
    await indexing.read({ url: page('article.html'), return_format: 'text' });
    expect(upserted).toHaveLength(1);
  });

  it('a failed index write is logged and the read still succeeds', async () => {
    failWrites = true;
    const { result } = await indexing.read({ url: page('notes.txt') }, { index: true });
    expect(result.content.length).toBeGreaterThan(0);
    await vi.waitFor(() => expect(logged).toEqual(['page read but not indexed']));
  });

  it('without an index (search.index_reader_pages off), a client read reads only', async () => {
    const { result } = await reader.read({ url: page('article.html') }, { index: true });
    expect(result.title).toBe('Tidal Energy Reaches the Orkney Islands');
  });
});
