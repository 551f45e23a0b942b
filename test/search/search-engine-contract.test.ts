import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SearxngEngine } from '../../src/search/searxng/engine.js';
import { SqliteFtsIndex } from '../../src/search/sqlite-fts/index.js';
import type { SearchDocument } from '../../src/search/types.js';
import { runSearchEngineContract } from '../contracts/search-engine.contract.js';

/**
 * A SearXNG stand-in serving `corpus` in SearXNG's JSON shape: every document with a word of the
 * query, dates without a zone as SearXNG writes them; it ignores `site:` and `time_range` as some
 * of its upstream engines do, so the filters are the engine's to keep.
 */
async function fakeSearxng(corpus: SearchDocument[]) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const words = (url.searchParams.get('q') ?? '')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 2 && !w.startsWith('site'));
    const page = Number(url.searchParams.get('pageno') ?? '1');
    const results =
      page > 1
        ? []
        : corpus
            .filter((d) => words.some((w) => `${d.title} ${d.content}`.toLowerCase().includes(w)))
            .map((d) => ({
              url: d.url,
              title: d.title,
              content: d.content,
              publishedDate: d.published?.replace(/Z$/, '') ?? null,
              engine: 'fake',
            }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: 'q', results }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

runSearchEngineContract('searxng (local stand-in)', async (corpus) => {
  const upstream = await fakeSearxng(corpus);
  const engine = new SearxngEngine({ baseUrl: upstream.url, maxPages: 2 });
  return {
    engine,
    close: async () => {
      await engine.close();
      await upstream.close();
    },
  };
});

runSearchEngineContract('sqlite-fts index (in memory)', async (corpus) => {
  const index = new SqliteFtsIndex(':memory:');
  await index.upsert(corpus);
  return { engine: index, close: () => index.close() };
});
