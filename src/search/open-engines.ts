import type { Config } from '../config/schema.js';
import { SearxngEngine } from './searxng/engine.js';
import type { SearchEngine } from './types.js';

/** The upstream engines named under `search.engines`: the one place where their kind meets an implementation. */
export function openSearchEngines(config: Config): Map<string, SearchEngine> {
  return new Map<string, SearchEngine>(
    Object.entries(config.search.engines).map(([name, e]) => [
      name,
      new SearxngEngine({
        baseUrl: e.base_url,
        timeoutMs: e.timeout_ms,
        maxPages: e.max_pages,
        language: e.language,
        categories: e.categories,
      }),
    ]),
  );
}
