import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import type { SearchDocument, SearchEngine } from '../../src/search/types.js';

export interface SearchEngineFixture {
  engine: SearchEngine;
  close(): Promise<void>;
}

export const NOW = new Date('2026-03-15T12:00:00Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();

/** What the engine under test can find: an upstream serves it, an index is filled with it. */
export const ENGINE_CORPUS: SearchDocument[] = [
  {
    url: 'https://energy.example.com/tidal-orkney',
    title: 'Tidal turbines in Orkney',
    content: 'Engineers installed tidal turbines on the seabed of the Orkney strait.',
    published: daysAgo(1),
  },
  {
    url: 'https://www.energy.example.com/tidal-history',
    title: 'A history of tidal mills',
    content: 'Tidal mills ground grain in medieval Europe, long before turbines.',
    published: daysAgo(400),
  },
  {
    url: 'https://news.example.org/tidal-lagoon',
    title: 'Tidal lagoon plans shelved',
    content: 'The tidal lagoon in the bay will not be built this decade.',
  },
  {
    url: 'https://notenergy.example.com/tidal-batteries',
    title: 'Batteries beside tidal turbines',
    content: 'Grid batteries store what tidal turbines make at slack water.',
    published: daysAgo(3),
  },
];

const hostOf = (url: string) => new URL(url).hostname;

/**
 * The query side of the search seam (`SearchEngine`): every engine, an upstream such as SearXNG
 * or the platform's own index, answers the same way to counts, filters and hostile query text.
 */
export function runSearchEngineContract(
  label: string,
  setup: (corpus: SearchDocument[]) => Promise<SearchEngineFixture>,
): void {
  describe(`SearchEngine contract: ${label}`, () => {
    let fx: SearchEngineFixture;
    beforeAll(async () => {
      fx = await setup(ENGINE_CORPUS);
    });
    afterAll(async () => {
      await fx?.close();
    });

    it('finds documents by a word, as well-formed hits with distinct urls', async () => {
      const hits = await fx.engine.query({ text: 'tidal', count: 10, now: NOW });
      expect(hits.length).toBeGreaterThan(0);
      expect(new Set(hits.map((h) => h.url)).size).toBe(hits.length);
      for (const hit of hits) {
        expect(hit.url).toMatch(/^https?:\/\//);
        expect(hit.title).not.toBe('');
        expect(typeof hit.snippet).toBe('string');
        expect(hit.site).not.toBe('');
        expect(Number.isFinite(hit.score)).toBe(true);
        if (hit.published !== undefined) expect(Number.isNaN(Date.parse(hit.published))).toBe(false);
      }
    });

    it('holds count', async () => {
      expect(await fx.engine.query({ text: 'tidal', count: 1, now: NOW })).toHaveLength(1);
    });

    it('keeps to the domain filter: the domain and its subdomains only', async () => {
      const hits = await fx.engine.query({ text: 'tidal', count: 10, domain: 'energy.example.com', now: NOW });
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) expect(hostOf(hit.url)).toMatch(/(^|\.)energy\.example\.com$/);
    });

    it('keeps to the recency filter: no dated hit older than the window', async () => {
      const hits = await fx.engine.query({ text: 'tidal', count: 10, recency: 'oneWeek', now: NOW });
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        if (hit.published !== undefined)
          expect(Date.parse(hit.published)).toBeGreaterThanOrEqual(NOW.getTime() - 7 * 86_400_000);
      }
    });

    it('answers query text full of syntax characters without failing', async () => {
      const text = `tidal "turbines" (orkney) : - / ' % + $ AND OR NOT * ^ ~ NEAR(`;
      const hits = await fx.engine.query({ text, count: 10, now: NOW });
      expect(Array.isArray(hits)).toBe(true);
    });

    it('finds nothing for blank text', async () => {
      expect(await fx.engine.query({ text: '   ', count: 10, now: NOW })).toEqual([]);
    });

    it('refuses a count outside 1-50 with the API error for an invalid field', async () => {
      for (const count of [0, 51, 2.5]) {
        const err = await fx.engine.query({ text: 'tidal', count, now: NOW }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).code).toBe(1214);
      }
    });
  });
}
