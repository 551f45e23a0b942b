import { availableParallelism } from 'node:os';
import { createDeadline, type Deadline } from '../../net/deadline.js';
import { type FetchedBody, parseFetchableUrl } from '../../net/fetch-url.js';
import { createGuardedFetcher } from '../../net/fetcher.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import { createRenderer, type Renderer } from './browser.js';
import { cacheKey } from './cache-key.js';
import { contentKind } from './content-kind.js';
import { READ_TIMEOUT_SECONDS, READER_DEFAULTS } from './defaults.js';
import { readerFetchError, upstreamFailure } from './errors.js';
import { createExtractPool, type ExtractPoolStats } from './extract-pool.js';
import type { ThreadReading } from './extract-worker.js';
import type { PageJob } from './read-page.js';
import type { PageIndex, ReaderRequest, ReaderResult, ReaderServiceOptions } from './types.js';

/**
 * A read's result: the reply's `reader_result` as UTF-8 JSON (written by the extraction thread, or
 * as the cache kept it), and the same result as an object.
 */
export interface ReaderOutput {
  json: Uint8Array;
  /**
   * Parsed from `json` when first read (search indexing, the crawler): a reply that only sends the
   * bytes never rebuilds the result on the event loop (tens of milliseconds for a long PDF's).
   */
  readonly result: ReaderResult;
}

export interface ReadOptions {
  signal?: CancelSignal | undefined;
  /**
   * Whose read it is (the key's id, `account/key` for a key of an account): pages waiting for an
   * extraction thread take turns by tenant, and an account's keys share its threads.
   */
  tenant?: string | undefined;
  /**
   * A client's read (the reader operation, the web reader MCP tool), whose page goes into the search
   * index when the reader has one (`search.index_reader_pages`); a crawl indexes its pages itself.
   */
  index?: boolean;
}

export interface ReaderService {
  read(request: ReaderRequest, options?: ReadOptions): Promise<ReaderOutput>;
  /** The extraction threads: how many, how busy, how many were ended mid-page. */
  extraction(): ExtractPoolStats;
  /**
   * Starts every extraction thread and has each read a small page (its modules loaded, its code
   * compiled). `serve` calls it at start-up, so that the first reads do not wait for a thread and the
   * memory the threads hold is there from the start; tests and one-off commands leave threads to
   * start on demand.
   */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `text`: the same JSON as a string, when the caller has it already (the cache's entry). */
function outputOf(json: Uint8Array, text?: string): ReaderOutput {
  let result: ReaderResult | undefined;
  return {
    json,
    get result() {
      result ??= JSON.parse(text ?? decoder.decode(json)) as ReaderResult;
      return result;
    },
  };
}

/** Under this many words, a page that runs scripts is taken to build its text in the browser. */
const SPARSE_WORDS = 30;

type Extracted = Extract<ThreadReading, { ok: true }>;

/** The page each thread reads at start-up: HTML through extraction and Markdown. */
const WARM_UP_PAGE: Omit<PageJob, 'pdfMaxDecodedBytes'> = {
  body: '<!doctype html><html><head><title>warm-up</title></head><body><article><p>Warm-up.</p></article></body></html>',
  contentType: 'text/html',
  url: 'http://localhost/',
  request: { url: 'http://localhost/' },
};

/** The reply does not depend on the index: a failed write is logged, not the reader's error. */
function addToIndex(index: PageIndex, result: ReaderResult): void {
  const published = result.publishedTime ? { published: result.publishedTime } : {};
  index.pages
    .upsert([{ url: result.url, title: result.title, content: result.content, ...published }])
    .catch((err: unknown) => index.log.error({ err, url: result.url }, 'page read but not indexed'));
}

export function createReaderService(options: ReaderServiceOptions = {}): ReaderService {
  const fetcher = createGuardedFetcher({
    ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  const limits = {
    maxBytes: options.maxBytes ?? READER_DEFAULTS.max_bytes,
    maxRedirects: options.maxRedirects ?? READER_DEFAULTS.max_redirects,
    idleTimeoutMs: options.idleTimeoutMs ?? READER_DEFAULTS.idle_timeout_ms,
    userAgent: options.userAgent ?? READER_DEFAULTS.user_agent,
  };
  const pdfMaxDecodedBytes = (options.pdfMaxDecodedMb ?? READER_DEFAULTS.pdf_max_decoded_mb) * 1024 * 1024;
  const browserMode = options.browser ?? READER_DEFAULTS.browser;
  let renderer: Renderer | undefined;
  const threads = options.workers ?? Math.max(1, availableParallelism());
  const pool = createExtractPool({
    size: threads,
    memoryMb: options.workerMemoryMb ?? READER_DEFAULTS.worker_memory_mb,
    maxSeconds: options.extractTimeoutSeconds ?? READER_DEFAULTS.extract_timeout_seconds,
    queueSize: options.extractQueueSize ?? READER_DEFAULTS.extract_queue_size,
  });

  /** Parsing, extraction and formatting happen in a thread of the pool, under the read's deadline. */
  async function extract(job: PageJob, deadline: Deadline, transfer: boolean, lane: string): Promise<Extracted> {
    const reading = await pool.read(job, deadline, { transfer, lane });
    if (!reading.ok) throw upstreamFailure(job.url, reading.reason);
    return reading;
  }

  async function readFresh(request: ReaderRequest, deadline: Deadline, tenant: string): Promise<Extracted> {
    let page: FetchedBody;
    try {
      page = await fetcher.get(request.url, limits, deadline);
    } catch (error) {
      throw readerFetchError(error, request.url);
    }
    if (browserMode === 'always' && contentKind(page.contentType, page.body) === 'html')
      return render(page, request, deadline, tenant);
    const job = { body: page.body, contentType: page.contentType, url: page.url, request, pdfMaxDecodedBytes };
    // The body goes to the thread without a copy unless the browser may still need it.
    const read = await extract(job, deadline, browserMode === 'never', tenant);
    const sparse = read.words !== undefined && read.words < SPARSE_WORDS && read.hasScripts === true;
    return browserMode === 'auto' && sparse ? render(page, request, deadline, tenant) : read;
  }

  async function render(
    page: FetchedBody,
    request: ReaderRequest,
    deadline: Deadline,
    tenant: string,
  ): Promise<Extracted> {
    renderer ??= createRenderer(options.chromiumPath ?? READER_DEFAULTS.chromium_path);
    const rendered = await renderer.render(
      { fetcher, userAgent: limits.userAgent, maxBytes: limits.maxBytes, document: page },
      deadline,
    );
    const job = { body: rendered.html, contentType: 'text/html', url: rendered.url, request, pdfMaxDecodedBytes };
    return extract(job, deadline, false, tenant);
  }

  async function readCached(
    request: ReaderRequest,
    signal: CancelSignal | undefined,
    tenant: string,
  ): Promise<ReaderOutput> {
    try {
      parseFetchableUrl(request.url);
    } catch (error) {
      throw readerFetchError(error, request.url);
    }
    const key = cacheKey(request);
    if (options.cache && !request.no_cache) {
      const hit = await options.cache.get(key);
      if (hit !== undefined) return outputOf(encoder.encode(hit), hit);
    }
    const deadline = createDeadline(request.timeout ?? READ_TIMEOUT_SECONDS, signal);
    let json: Uint8Array;
    try {
      ({ json } = await readFresh(request, deadline, tenant));
    } finally {
      deadline.dispose();
    }
    // `no_cache` asks for a fresh read and leaves nothing behind: a key holder cannot grow the cache
    // (or the database) with it. The entry is the reply's own JSON, sent as it is on a hit.
    if (request.no_cache || !options.cache) return outputOf(json);
    const text = decoder.decode(json);
    await options.cache.set(key, text, options.cacheTtlSeconds ?? READER_DEFAULTS.cache_ttl_seconds);
    return outputOf(json, text);
  }

  return {
    async read(request, { signal, tenant = '', index = false } = {}) {
      const output = await readCached(request, signal, tenant);
      if (index && options.index) addToIndex(options.index, output.result);
      return output;
    },
    extraction: () => pool.stats(),
    async warmUp() {
      const deadline = createDeadline(READ_TIMEOUT_SECONDS);
      try {
        // Reads queued together each start a thread of their own (extract-pool.ts).
        const reads = Array.from({ length: threads }, (_, n) =>
          pool.read({ ...WARM_UP_PAGE, pdfMaxDecodedBytes }, deadline, { lane: `warm-up ${n}` }),
        );
        for (const reading of await Promise.all(reads))
          if (!reading.ok) throw new Error(`the reader's extraction threads did not start: ${reading.reason}`);
      } finally {
        deadline.dispose();
      }
    },
    async close() {
      await pool.close();
      await renderer?.close();
      await fetcher.close();
    },
  };
}
