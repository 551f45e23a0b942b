import type { LookupFunction } from '../../net/resolve.js';

/**
 * The reader service's own types: the request as the route hands it over (already validated), the
 * spec's `reader_result`, and the options the lead wires from config.
 */

export type ReturnFormat = 'markdown' | 'text' | 'html';
export type BrowserMode = 'never' | 'auto' | 'always';

export interface ReaderRequest {
  url: string;
  /** Seconds for the whole read (fetch, redirects, rendering). Default 20. */
  timeout?: number;
  no_cache?: boolean;
  return_format?: ReturnFormat;
  retain_images?: boolean;
  no_gfm?: boolean;
  keep_img_data_url?: boolean;
  with_images_summary?: boolean;
  with_links_summary?: boolean;
}

export interface ReaderResult {
  content: string;
  description: string;
  title: string;
  url: string;
  external: { stylesheet: Record<string, { type: string }> };
  metadata: Record<string, string>;
  publishedTime?: string;
  images?: Record<string, string>;
  links?: Record<string, string>;
}

/** The store-backed cache the lead supplies; values are JSON text of a ReaderResult. */
export interface ReaderCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
}

export interface ReaderServiceOptions {
  /** Hostnames (exact, or `*.example.com`) or IPs/CIDRs that may be reached although private (net/allow-list.ts). */
  allowHosts?: readonly string[];
  /** Largest body read, after decompression. Default 10 MB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Longest wait between two reads of the body (slow-loris guard), ms. Default 10 s. */
  idleTimeoutMs?: number;
  browser?: BrowserMode;
  /** Default `/usr/bin/chromium` (Debian's package, never a downloaded build). */
  chromiumPath?: string;
  cache?: ReaderCache;
  /** Lifetime of cache entries, seconds. Default 3600. */
  cacheTtlSeconds?: number;
  userAgent?: string;
  /** DNS resolution; default `dns.promises.lookup` with all addresses. */
  lookup?: LookupFunction;
  /** Extraction threads at most; default the machine's cores. */
  workers?: number;
  /** Heap cap of each extraction thread, MB; a page that needs more fails with 1234. Default 512. */
  workerMemoryMb?: number;
  /**
   * What a PDF's streams may decode to in total, MB, counted before the PDF is parsed (inflated
   * streams are memory outside the heap cap); past it the read fails with 1234. Default 64.
   */
  pdfMaxDecodedMb?: number;
  /** Longest a page may hold an extraction thread, seconds, whatever the read's timeout. Default 30. */
  extractTimeoutSeconds?: number;
  /** Pages waiting for an extraction thread, all callers together; past it 1305. Default 256. */
  extractQueueSize?: number;
}
