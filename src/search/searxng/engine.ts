import { randomUUID } from 'node:crypto';
import { ApiError } from '../../errors/api-error.js';
import { upstreamFailure } from '../../errors/errors.js';
import { createUpstreamFetcher, type Fetcher } from '../../net/fetcher.js';
import { checkCount, hostInDomain, normaliseDomain, recencyCutoff } from '../text/filters.js';
import { DEFAULT_COLLECTION, type Recency, type SearchEngine, type SearchHit, type SearchQuery } from '../types.js';
import { type SearxngResult, toHit } from './map.js';

export interface SearxngOptions {
  /** The SearXNG instance, e.g. `http://127.0.0.1:8888`; its settings must allow `format: json`. */
  baseUrl: string;
  /** Absent or undefined: 10 s. */
  timeoutMs?: number | undefined;
  /** SearXNG answers ~10-20 results a page; more pages are fetched until `count` is reached. Default 3. */
  maxPages?: number | undefined;
  /** Absent, undefined or empty: the instance's default. */
  language?: string | undefined;
  /** Absent, undefined or empty: the instance's default. */
  categories?: string | undefined;
}

/** A results page is a few kilobytes of JSON; anything past this is not SearXNG's answer. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

const TIME_RANGE: Record<Exclude<Recency, 'noLimit'>, string> = {
  oneDay: 'day',
  oneWeek: 'week',
  oneMonth: 'month',
  oneYear: 'year',
};

/**
 * An upstream web search engine: SearXNG's JSON API behind the query side of the seam. Collections
 * are the platform's own index's concept, so a query for other collections than `web` finds nothing.
 */
export class SearxngEngine implements SearchEngine {
  readonly #options: { baseUrl: string; timeoutMs: number; maxPages: number } & Pick<
    SearxngOptions,
    'language' | 'categories'
  >;
  /** The instance the operator configured, reached as configured (often on loopback). */
  readonly #fetcher: Fetcher = createUpstreamFetcher();

  constructor(options: SearxngOptions) {
    this.#options = { ...options, timeoutMs: options.timeoutMs ?? 10_000, maxPages: options.maxPages ?? 3 };
  }

  async query(q: SearchQuery): Promise<SearchHit[]> {
    const count = checkCount(q.count);
    const text = q.text.trim();
    if (text === '' || !(q.collections ?? [DEFAULT_COLLECTION]).includes(DEFAULT_COLLECTION)) return [];
    const domain = normaliseDomain(q.domain);
    const cutoff = recencyCutoff(q.recency, q.now);
    const hits = new Map<string, SearchHit>();
    for (let page = 1; page <= this.#options.maxPages && hits.size < count; page++) {
      const results = await this.#page(domain ? `site:${domain} ${text}` : text, q.recency, page);
      const before = hits.size;
      results.forEach((r, i) => {
        const hit = toHit(r, (page - 1) * 100 + i);
        if (!hit || hits.has(hit.url)) return;
        // Engines do not all honour `site:`; the filter is ours to keep.
        if (domain && !hostInDomain(new URL(hit.url).hostname.toLowerCase(), domain)) return;
        // Upstream applied time_range; a result whose stated date is older still does not pass.
        // Undated results are trusted to the upstream filter: most web results carry no date.
        if (cutoff !== undefined && hit.published && Date.parse(hit.published) < cutoff) return;
        hits.set(hit.url, hit);
      });
      if (results.length === 0 || hits.size === before) break;
    }
    return [...hits.values()].slice(0, count);
  }

  async #page(text: string, recency: Recency | undefined, page: number): Promise<SearxngResult[]> {
    const url = new URL(
      'search',
      this.#options.baseUrl.endsWith('/') ? this.#options.baseUrl : `${this.#options.baseUrl}/`,
    );
    url.searchParams.set('q', text);
    url.searchParams.set('format', 'json');
    url.searchParams.set('pageno', String(page));
    if (recency && recency !== 'noLimit') url.searchParams.set('time_range', TIME_RANGE[recency]);
    if (this.#options.language) url.searchParams.set('language', this.#options.language);
    if (this.#options.categories) url.searchParams.set('categories', this.#options.categories);
    let body: unknown;
    try {
      const { timeoutMs } = this.#options;
      const res = await this.#fetcher.send(
        { url, method: 'GET', headers: { accept: 'application/json' } },
        { maxBytes: MAX_ANSWER_BYTES, idleTimeoutMs: timeoutMs, signal: AbortSignal.timeout(timeoutMs) },
      );
      if (res.status < 200 || res.status >= 300) {
        // 403: the instance does not allow format=json; 429: its rate limiter.
        throw upstream(`SearXNG answered HTTP ${res.status}`, res.body.toString('utf8', 0, 2048));
      }
      body = JSON.parse(res.body.toString('utf8'));
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw upstream(`SearXNG request failed: ${err instanceof Error ? err.message : String(err)}`, err);
    }
    const results = (body as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) throw upstream('SearXNG answered without a results array', body);
    return results.filter((r): r is SearxngResult => typeof r === 'object' && r !== null);
  }

  async close(): Promise<void> {
    await this.#fetcher.close();
  }
}

function upstream(message: string, cause: unknown): ApiError {
  return upstreamFailure(`${message} (error id ${randomUUID()})`, { cause });
}
