import type { Config } from '../../config/schema.js';
import { openSearchEngines } from '../../search/open-engines.js';
import { openSearchIndex } from '../../search/open-index.js';
import type { Tracer } from '../../telemetry/tracer.js';
import { SearchService } from './search-service.js';

/** The platform's own index plus the upstream engines named under `search.engines`. */
export async function openSearchService(config: Config, tracer?: Tracer): Promise<SearchService> {
  return new SearchService(
    await openSearchIndex(config),
    openSearchEngines(config),
    config.search.default_engine,
    tracer,
  );
}
