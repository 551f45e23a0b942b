import type { FastifyBaseLogger } from 'fastify';
import type { PlatformServices } from '../services/platform-services.js';
import type { ReaderOutput } from '../services/reader/index.js';

/**
 * With `search.index_reader_pages`, a page read through the API (the reader operation, the web
 * reader MCP tool) is added to the search index. The reply does not depend on the index: a failed
 * write is logged, not the caller's error.
 */
export function indexReadPage(services: PlatformServices, output: ReaderOutput, log: FastifyBaseLogger): void {
  if (!services.config.search.index_reader_pages) return;
  // Only here is the result parsed from its JSON: a reply that only sends the bytes never rebuilds it.
  const { result } = output;
  services.search.index
    .upsert([
      {
        url: result.url,
        title: result.title,
        content: result.content,
        ...(result.publishedTime ? { published: result.publishedTime } : {}),
      },
    ])
    .catch((err: unknown) => log.error({ err }, 'page read but not indexed'));
}
