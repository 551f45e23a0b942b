import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SearxngEngine } from '../../src/search/searxng/engine.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

/** Replays recorded SearXNG answers; `mode` switches to the failures a real instance shows. */
let mode: 'ok' | 'forbidden' | 'html' | 'slow' = 'ok';
const seen: URL[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    seen.push(url);
    if (mode === 'forbidden') return void res.writeHead(403).end('Forbidden');
    if (mode === 'html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>');
    if (mode === 'slow') return void setTimeout(() => res.writeHead(200).end('{}'), 500);
    const q = url.searchParams.get('q') ?? '';
    const page = url.searchParams.get('pageno');
    const name = q.includes('tidal energy')
      ? `searxng-tidal-energy-p${page === '2' ? 2 : 1}.json`
      : 'searxng-empty.json';
    res.writeHead(200, { 'content-type': 'application/json' }).end(fixture(name));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  mode = 'ok';
  seen.length = 0;
});

describe('SearXNG engine', () => {
  it('maps results to hits and asks for JSON', async () => {
    const engine = new SearxngEngine({ baseUrl, maxPages: 1 });
    const hits = await engine.query({ text: 'tidal energy', count: 10 });
    expect(hits.map((h) => h.url)).toEqual([
      'https://en.wikipedia.org/wiki/Tidal_power',
      'https://www.energy.gov/eere/water/marine-energy-basics',
      'https://news.example.org/2025/06/orkney-tidal-array',
    ]);
    expect(hits[1]).toEqual({
      url: 'https://www.energy.gov/eere/water/marine-energy-basics',
      title: 'Marine Energy Basics | Department of Energy',
      snippet:
        'Marine energy, also known as marine and hydrokinetic energy, harnesses the power of waves, tides and ocean currents.',
      site: 'energy.gov',
      published: '2024-03-01T00:00:00.000Z',
      score: 2,
    });
    expect(hits[0]!.published).toBeUndefined();
    expect(seen[0]!.pathname).toBe('/search');
    expect(seen[0]!.searchParams.get('format')).toBe('json');
    expect(seen[0]!.searchParams.get('pageno')).toBe('1');
    expect(seen[0]!.searchParams.has('time_range')).toBe(false);
  });

  it('fetches further pages until count is reached, without duplicates', async () => {
    const hits = await new SearxngEngine({ baseUrl }).query({ text: 'tidal energy', count: 4 });
    expect(hits.map((h) => h.url)).toEqual([
      'https://en.wikipedia.org/wiki/Tidal_power',
      'https://www.energy.gov/eere/water/marine-energy-basics',
      'https://news.example.org/2025/06/orkney-tidal-array',
      'https://www.britannica.com/science/tidal-power',
    ]);
    expect(seen.map((u) => u.searchParams.get('pageno'))).toEqual(['1', '2']);
  });

  it('holds count', async () => {
    expect(await new SearxngEngine({ baseUrl }).query({ text: 'tidal energy', count: 2 })).toHaveLength(2);
    expect(seen).toHaveLength(1);
  });

  it('passes the recency filter as time_range and drops results dated before it', async () => {
    const hits = await new SearxngEngine({ baseUrl, maxPages: 1 }).query({
      text: 'tidal energy',
      count: 10,
      recency: 'oneYear',
      now: new Date('2026-01-10T00:00:00Z'),
    });
    expect(seen[0]!.searchParams.get('time_range')).toBe('year');
    expect(hits.map((h) => h.url)).not.toContain('https://www.energy.gov/eere/water/marine-energy-basics');
    expect(hits.map((h) => h.url)).toContain('https://news.example.org/2025/06/orkney-tidal-array');
  });

  it('asks with site: and keeps only the domain and its subdomains', async () => {
    const hits = await new SearxngEngine({ baseUrl, maxPages: 1 }).query({
      text: 'tidal energy',
      count: 10,
      domain: 'wikipedia.org',
    });
    expect(seen[0]!.searchParams.get('q')).toBe('site:wikipedia.org tidal energy');
    expect(hits.map((h) => h.url)).toEqual(['https://en.wikipedia.org/wiki/Tidal_power']);
  });

  it('answers [] for no results, empty text and other collections', async () => {
    const engine = new SearxngEngine({ baseUrl });
    expect(await engine.query({ text: 'zzqqxx', count: 10 })).toEqual([]);
    expect(await engine.query({ text: '   ', count: 10 })).toEqual([]);
    expect(await engine.query({ text: 'tidal energy', count: 10, collections: ['kb'] })).toEqual([]);
  });

  it.each([
    ['forbidden', /HTTP 403/],
    ['html', /request failed/],
  ] as const)('turns a %s answer into ApiError 1234', async (m, message) => {
    mode = m;
    await expect(new SearxngEngine({ baseUrl }).query({ text: 'tidal energy', count: 5 })).rejects.toMatchObject({
      code: 1234,
      status: 502,
      message: expect.stringMatching(message),
    });
  });

  it('turns a timeout and an unreachable server into ApiError 1234', async () => {
    mode = 'slow';
    await expect(
      new SearxngEngine({ baseUrl, timeoutMs: 50 }).query({ text: 'tidal energy', count: 5 }),
    ).rejects.toMatchObject({ code: 1234 });
    await expect(
      new SearxngEngine({ baseUrl: 'http://127.0.0.1:9' }).query({ text: 'tidal energy', count: 5 }),
    ).rejects.toMatchObject({ code: 1234 });
  });
});
