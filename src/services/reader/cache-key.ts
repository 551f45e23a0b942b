import { createHash } from 'node:crypto';
import type { ReaderRequest } from './types.js';

/** Key of a cached result: the URL and every option that changes the output (not timeout/no_cache). */
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
  return `reader:v1:${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}
