import { unknownModel } from '../../errors/errors.js';
import { type SearchResultEntry, toResultEntries } from '../../search/result-entry.js';
import type { Recency, SearchEngine, SearchIndex } from '../../search/types.js';
import { inSpan, type Tracer } from '../../telemetry/tracer.js';

/** The live platform's engine names (docs/wire.md, "Reader and web search"): all mean "the default engine" unless configured by name. */
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
    /** When tracing is on: a span per query. */
    private readonly tracer?: Tracer | undefined,
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

  search(request: SearchRequest, lenient = false): Promise<SearchResultEntry[]> {
    if (!this.tracer) return this.query(request, lenient);
    const attributes = {
      'gen_platform.search.engine': request.engine,
      'gen_platform.search.count': request.count,
      'gen_platform.search.domain': request.domain,
      'gen_platform.search.recency': request.recency,
    };
    return inSpan(this.tracer, `search ${request.engine}`, { kind: 'client', attributes }, async (span) => {
      const results = await this.query(request, lenient);
      span.setAttributes({ 'gen_platform.search.results': results.length });
      return results;
    });
  }

  private async query(request: SearchRequest, lenient: boolean): Promise<SearchResultEntry[]> {
    const hits = await this.engine(request.engine, lenient).query({
      text: request.query,
      count: request.count,
      domain: request.domain,
      recency: request.recency,
      collections: request.collections,
    });
    return toResultEntries(hits.slice(0, request.count));
  }

  async close(): Promise<void> {
    await Promise.all([this.index.close(), ...[...this.upstreams.values()].map((e) => e.close())]);
  }
}
