import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteFtsIndex } from '../../../src/search/sqlite-fts/index.js';
import { createReaderService } from '../../../src/services/reader/index.js';
import { crawl } from '../../../src/services/search/crawler.js';

const page = (title: string, links: string[]) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${`${title} is a page of the test site with enough words to count as an article body for the reader. `.repeat(4)}</p>` +
  links.map((l) => `<p><a href="${l}">link to ${l}</a></p>`).join('') +
  '</article></body></html>';

const SITE: Record<string, string> = {
  '/robots.txt': 'User-agent: *\nDisallow: /secret',
  '/': page('Home', ['/a', '/b', '/secret', 'https://elsewhere.example/x']),
  '/a': page('Alpha', ['/a/deep', '/']),
  '/b': page('Beta', []),
  '/a/deep': page('Deep', ['/a/deeper']),
  '/a/deeper': page('Deeper', []),
  '/secret': page('Secret', []),
};

describe('crawl', () => {
  let server: http.Server;
  let base: string;
  const requested: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requested.push(req.url ?? '');
      const body = SITE[req.url ?? ''];
      if (body === undefined) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader('content-type', req.url === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8');
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('follows same-site links breadth-first to the depth, honouring robots.txt', async () => {
    const reader = createReaderService({ allowHosts: ['127.0.0.1'] });
    const index = new SqliteFtsIndex(':memory:');
    const progress: string[] = [];
    const result = await crawl(reader, index, `${base}/`, {
      maxPages: 10,
      depth: 2,
      userAgent: 'test-crawler',
      onProgress: (e) => progress.push(e.url),
    });
    expect(result).toEqual({ indexed: 4, failed: 0, skippedByRobots: 1 });
    expect(requested).not.toContain('/secret');
    expect(requested).not.toContain('/a/deeper');
    const hits = await index.query({ text: 'Deep', count: 10 });
    expect(hits.map((h) => h.title)).toContain('Deep');
    expect(progress).toHaveLength(4);
    await reader.close();
    await index.close();
  });

  it('stops at max-pages', async () => {
    const reader = createReaderService({ allowHosts: ['127.0.0.1'] });
    const index = new SqliteFtsIndex(':memory:');
    const result = await crawl(reader, index, `${base}/`, { maxPages: 2, depth: 5, userAgent: 'test-crawler' });
    expect(result.indexed).toBe(2);
    await reader.close();
    await index.close();
  });
});
