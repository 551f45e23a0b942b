import { hostOf, normalisePublished, siteName } from '../text/document.js';
import type { SearchHit } from '../types.js';

/** The fields of one SearXNG JSON result that we read; the rest are ignored. */
export interface SearxngResult {
  url?: unknown;
  title?: unknown;
  content?: unknown;
  publishedDate?: unknown;
  engine?: unknown;
  score?: unknown;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** SearXNG writes dates without a zone ("2024-03-01T00:00:00"); they are UTC, not our local time. */
function publishedOf(value: unknown): string | undefined {
  const raw = text(value);
  if (raw === '') return undefined;
  const zoned = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(raw) ? `${raw}Z` : raw;
  return normalisePublished(zoned)?.iso;
}

/** One result as a hit, or undefined when it has no usable http(s) url. */
export function toHit(result: SearxngResult, rank: number): SearchHit | undefined {
  const url = text(result.url);
  const host = hostOf(url);
  if (!host || !/^https?:/i.test(url)) return undefined;
  const published = publishedOf(result.publishedDate);
  return {
    url,
    title: text(result.title) || url,
    snippet: text(result.content),
    site: siteName(undefined, host),
    published,
    // SearXNG's own merged score when present; else rank order (earlier is better).
    score: typeof result.score === 'number' && Number.isFinite(result.score) ? result.score : 1 / (rank + 1),
  };
}
