import type { ReaderBody } from '../../api/reader.js';
import type { ReaderResult } from '../../api/reader-reply.js';
import type { LookupFunction } from '../../net/resolve.js';
import type { SearchIndex } from '../../search/types.js';

/**
 * The reader's request and result are those of its operation's schemas (api/reader.ts,
 * api/reader-reply.ts): the request as the route hands it over (already validated, without the
 * reply's ids), the result as the reply's `reader_result`.
 */
export type ReaderRequest = Omit<ReaderBody, 'request_id' | 'user_id'>;
export type ReturnFormat = NonNullable<ReaderRequest['return_format']>;
export type { ReaderResult };
export type BrowserMode = 'never' | 'auto' | 'always';

/** The store-backed cache the lead supplies; values are JSON text of a ReaderResult. */
export interface ReaderCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
}

/** Where a client's reads put their pages (`search.index_reader_pages`), and where a failed write is told. */
export interface PageIndex {
  pages: Pick<SearchIndex, 'upsert'>;
  log: { error(fields: object, message: string): void };
}

/**
 * The configuration's `reader` section as the service takes it (reader-options.ts); a setting left
 * out takes the schema's default (defaults.ts).
 */
export interface ReaderServiceOptions {
  /** Hostnames (exact, or `*.example.com`) or IPs/CIDRs that may be reached although private (net/allow-list.ts). */
  allowHosts?: readonly string[];
  /** Largest body read, after decompression. */
  maxBytes?: number;
  maxRedirects?: number;
  /** Longest wait between two reads of the body (slow-loris guard), ms. */
  idleTimeoutMs?: number;
  browser?: BrowserMode;
  chromiumPath?: string;
  cache?: ReaderCache;
  /** Lifetime of cache entries, seconds. */
  cacheTtlSeconds?: number;
  userAgent?: string;
  /** DNS resolution; default `dns.promises.lookup` with all addresses. */
  lookup?: LookupFunction;
  /** Extraction threads at most; default the machine's cores. */
  workers?: number;
  /** Heap cap of each extraction thread, MB; a page that needs more fails with 1234. */
  workerMemoryMb?: number;
  /**
   * What a PDF's streams may decode to in total, MB, counted before the PDF is parsed (inflated
   * streams are memory outside the heap cap); pdf.js's buffers while it reads the PDF are held to
   * the file's size plus four times this. Past either the read fails with 1234.
   */
  pdfMaxDecodedMb?: number;
  /** Longest a page may hold an extraction thread, seconds, whatever the read's timeout. */
  extractTimeoutSeconds?: number;
  /** Pages waiting for an extraction thread, all callers together; past it 1305. */
  extractQueueSize?: number;
  /** With `search.index_reader_pages`: the index that a client's reads (`index: true`) add their pages to. */
  index?: PageIndex;
}
