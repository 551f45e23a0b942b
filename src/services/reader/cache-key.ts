import { createHash } from 'node:crypto';
import type { ReaderRequest } from './types.js';

/**
 * Key of a cached result: the URL and every option that changes the output (not timeout/no_cache).
 * v2: the entry is the reply's serialization of the result (api/json-writer.ts), sent as it is on a hit.
 */
export function cacheKey(request: ReaderRequest): string {
  const parts = {
    url: request.url,
    format: request.return_format ?? 'markdown',
    images: request.retain_images ?? true,
    gfm: !(request.no_gfm ?? false),
    dataUrls: request.keep_img_data_url ?? false,
    imagesSummary: request.with_images_summary ?? false,
    linksSummary: request.with_links_summary ?? false,
  };
  return `reader:v2:${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}
