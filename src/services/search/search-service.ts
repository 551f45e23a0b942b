import { unknownModel } from '../../errors/errors.js';
import { type SearchResultEntry, toResultEntries } from '../../search/result-entry.js';
import type { Recency, SearchEngine, SearchIndex } from '../../search/types.js';

/** The live platform's engine names (decisions.md §8): all mean "the default engine" unless configured by name. */
export const ENGINE_ALIASES = [
  'search-prime',
  'search_std',
  'search_pro',
  'search_pro_sogou',
  'search_pro_quark',
  'search_pro_jina',
];

export interface SearchRequest {
  engine: string;
  query: string;
  count: number;
  domain?: string | undefined;
  recency?: Recency | undefined;
  collections?: string[] | undefined;
}

/** Web search over the platform's own index or a configured upstream engine. */
export class SearchService {
  constructor(
    readonly index: SearchIndex,
    private readonly upstreams: ReadonlyMap<string, SearchEngine>,
    private readonly defaultEngine: string,
  ) {
    if (defaultEngine !== 'index' && !upstreams.has(defaultEngine)) {
      throw new Error(`search.default_engine "${defaultEngine}" is neither "index" nor a name under search.engines`);
    }
  }

  /** The engine for a `search_engine` value; `lenient` (the chat tool) maps unknown names to the default. */
  engine(name: string, lenient = false): SearchEngine {
    const chosen =
      this.upstreams.has(name) || name === 'index'
        ? name
        : ENGINE_ALIASES.includes(name) || lenient
          ? this.defaultEngine
          : undefined;
    if (chosen === undefined) {
      throw unknownModel(`search_engine "${name}" is not available here; use search-prime`);
    }
    return chosen === 'index' ? this.index : this.upstreams.get(chosen)!;
  }

  async search(request: SearchRequest, lenient = false): Promise<SearchResultEntry[]> {
    const hits = await this.engine(request.engine, lenient).query({
      text: request.query,
      count: request.count,
      ...(request.domain ? { domain: request.domain } : {}),
      ...(request.recency ? { recency: request.recency } : {}),
      ...(request.collections ? { collections: request.collections } : {}),
    });
    return toResultEntries(hits.slice(0, request.count));
  }

  async close(): Promise<void> {
    await Promise.all([this.index.close(), ...[...this.upstreams.values()].map((e) => e.close())]);
  }
}
