import type { SearchDocument, SearchIndex } from '../../search/types.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import type { ReaderService } from '../reader/index.js';
import { parseRobots, type RobotsRules } from './robots.js';

/** How the crawler introduces itself to sites and their robots.txt. */
export const INDEXER_USER_AGENT = 'gen-platform-indexer/0.1 (+https://github.com/)';

export interface CrawlOptions {
  maxPages: number;
  depth: number;
  collection?: string | undefined;
  userAgent: string;
  onProgress?: (event: { url: string; pages: number; queued: number; error?: string }) => void;
  signal?: CancelSignal;
}

export interface CrawlResult {
  indexed: number;
  failed: number;
  skippedByRobots: number;
}

const withoutFragment = (u: URL) => {
  const copy = new URL(u);
  copy.hash = '';
  return copy.href;
};

/** A page as an index document: its text, title and date as the reader extracted them. */
export async function readDocument(
  reader: ReaderService,
  url: string,
  collection: string | undefined,
  signal?: CancelSignal,
) {
  const { result: page } = await reader.read(
    { url, return_format: 'text', no_cache: true, with_links_summary: true },
    { signal },
  );
  const doc: SearchDocument = { url: page.url, title: page.title, content: page.content };
  if (page.publishedTime) doc.published = page.publishedTime;
  if (collection) doc.collection = collection;
  return { doc, links: Object.values(page.links ?? {}) };
}

async function robotsFor(reader: ReaderService, origin: string, agent: string): Promise<RobotsRules> {
  try {
    const { result: robots } = await reader.read({
      url: `${origin}/robots.txt`,
      return_format: 'text',
      no_cache: true,
    });
    return parseRobots(robots.content, agent);
  } catch {
    // No robots.txt (404, unreachable): everything is allowed, as crawlers conventionally assume.
    return parseRobots('', agent);
  }
}

/** Breadth-first over links on the start URL's host, honouring its robots.txt, up to maxPages and depth. */
export async function crawl(
  reader: ReaderService,
  index: SearchIndex,
  start: string,
  options: CrawlOptions,
): Promise<CrawlResult> {
  const origin = new URL(start).origin;
  const robots = await robotsFor(reader, origin, options.userAgent);
  const seen = new Set([withoutFragment(new URL(start))]);
  const queue: { url: string; depth: number }[] = [{ url: withoutFragment(new URL(start)), depth: 0 }];
  const result: CrawlResult = { indexed: 0, failed: 0, skippedByRobots: 0 };
  while (queue.length > 0 && result.indexed < options.maxPages && !options.signal?.aborted) {
    const { url, depth } = queue.shift()!;
    const target = new URL(url);
    if (!robots.allowed(target.pathname + target.search)) {
      result.skippedByRobots++;
      continue;
    }
    try {
      const { doc, links } = await readDocument(reader, url, options.collection, options.signal);
      await index.upsert([doc]);
      result.indexed++;
      options.onProgress?.({ url, pages: result.indexed, queued: queue.length });
      if (depth >= options.depth) continue;
      for (const link of links) {
        let next: URL;
        try {
          next = new URL(link, url);
        } catch {
          continue;
        }
        const key = withoutFragment(next);
        if (next.origin !== origin || seen.has(key)) continue;
        seen.add(key);
        queue.push({ url: key, depth: depth + 1 });
      }
    } catch (err) {
      result.failed++;
      options.onProgress?.({ url, pages: result.indexed, queued: queue.length, error: (err as Error).message });
    }
  }
  return result;
}
