import type { Config } from '../config/schema.js';
import type { Store } from '../stores/types.js';
import type { PageIndex, ReaderServiceOptions } from './reader/index.js';

/**
 * The reader's options from the configuration, its cache kept in the store; `index`: where a
 * client's reads add their pages (`search.index_reader_pages`).
 */
export function readerOptions(config: Config['reader'], store: Store, index?: PageIndex): ReaderServiceOptions {
  return {
    ...(index ? { index } : {}),
    allowHosts: config.allow_hosts,
    maxBytes: config.max_bytes,
    maxRedirects: config.max_redirects,
    idleTimeoutMs: config.idle_timeout_ms,
    browser: config.browser,
    chromiumPath: config.chromium_path,
    ...(config.workers > 0 ? { workers: config.workers } : {}),
    workerMemoryMb: config.worker_memory_mb,
    pdfMaxDecodedMb: config.pdf_max_decoded_mb,
    extractTimeoutSeconds: config.extract_timeout_seconds,
    extractQueueSize: config.extract_queue_size,
    userAgent: config.user_agent,
    ...(config.cache_ttl_seconds > 0
      ? {
          cacheTtlSeconds: config.cache_ttl_seconds,
          cache: {
            get: (key) => store.getCache(`reader:${key}`, Date.now()),
            set: (key, value, ttl) => store.setCache(`reader:${key}`, value, Date.now() + ttl * 1000),
          },
        }
      : {}),
  };
}
