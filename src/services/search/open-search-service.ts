import type { Config } from '../../config/schema.js';
import { openSearchIndex } from '../../search/open-index.js';
import { SearxngEngine } from '../../search/searxng/engine.js';
import type { SearchEngine } from '../../search/types.js';
import { SearchService } from './search-service.js';

/** The platform's own index plus the upstream engines named under `search.engines`. */
export async function openSearchService(config: Config): Promise<SearchService> {
  const upstreams = new Map<string, SearchEngine>(
    Object.entries(config.search.engines).map(([name, e]) => [
      name,
      new SearxngEngine({
        baseUrl: e.base_url,
        ...(e.timeout_ms ? { timeoutMs: e.timeout_ms } : {}),
        ...(e.max_pages ? { maxPages: e.max_pages } : {}),
        ...(e.language ? { language: e.language } : {}),
        ...(e.categories ? { categories: e.categories } : {}),
      }),
    ]),
  );
  return new SearchService(await openSearchIndex(config), upstreams, config.search.default_engine);
}
