import { availableParallelism } from 'node:os';
import { createDeadline, type Deadline } from '../../net/deadline.js';
import { type FetchedBody, parseFetchableUrl } from '../../net/fetch-url.js';
import { createGuardedFetcher } from '../../net/fetcher.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import { createRenderer, type Renderer } from './browser.js';
import { cacheKey } from './cache-key.js';
import { contentKind } from './content-kind.js';
import { readerFetchError, upstreamFailure } from './errors.js';
import { createExtractPool, type ExtractPoolStats } from './extract-pool.js';
import type { ThreadReading } from './extract-worker.js';
import type { PageJob } from './read-page.js';
import type { ReaderRequest, ReaderResult, ReaderServiceOptions } from './types.js';

/** A read's result as the reply's `reader_result` JSON (UTF-8), and the same result as an object. */
export interface ReaderOutput {
  json: Uint8Array;
  /**
   * Parsed from `json` when first read (search indexing, the crawler): a route that only sends the
   * bytes never rebuilds the result on the event loop (tens of milliseconds for a long PDF's).
   */
  readonly result: ReaderResult;
}

export interface ReaderService {
  /** `tenant`: whose read it is (the key's id): pages waiting for an extraction thread take turns by tenant. */
  read(request: ReaderRequest, signal?: CancelSignal, tenant?: string): Promise<ReaderResult>;
  /**
   * As `read`, with the result's JSON serialized in the extraction thread (or as the cache kept it):
   * the route writes those bytes as they are, so a result of megabytes does not hold up the event loop.
   */
  readOutput(request: ReaderRequest, signal?: CancelSignal, tenant?: string): Promise<ReaderOutput>;
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

const DEFAULTS = {
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
  idleTimeoutMs: 10_000,
  timeoutSeconds: 20,
  cacheTtlSeconds: 3600,
  chromiumPath: '/usr/bin/chromium',
  userAgent: 'Mozilla/5.0 (compatible; gen-platform-reader/0.1)',
  workerMemoryMb: 512,
  pdfMaxDecodedMb: 64,
  extractTimeoutSeconds: 30,
  extractQueueSize: 256,
};

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
const WARM_UP_PAGE: PageJob = {
  body: '<!doctype html><html><head><title>warm-up</title></head><body><article><p>Warm-up.</p></article></body></html>',
  contentType: 'text/html',
  url: 'http://localhost/',
  request: { url: 'http://localhost/' },
};

export function createReaderService(options: ReaderServiceOptions = {}): ReaderService {
  const fetcher = createGuardedFetcher({
    ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  const limits = {
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    maxRedirects: options.maxRedirects ?? DEFAULTS.maxRedirects,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
    userAgent: options.userAgent ?? DEFAULTS.userAgent,
  };
  const pdfMaxDecodedBytes = (options.pdfMaxDecodedMb ?? DEFAULTS.pdfMaxDecodedMb) * 1024 * 1024;
  const browserMode = options.browser ?? 'never';
  let renderer: Renderer | undefined;
  const threads = options.workers ?? Math.max(1, availableParallelism());
  const pool = createExtractPool({
    size: threads,
    memoryMb: options.workerMemoryMb ?? DEFAULTS.workerMemoryMb,
    maxSeconds: options.extractTimeoutSeconds ?? DEFAULTS.extractTimeoutSeconds,
    queueSize: options.extractQueueSize ?? DEFAULTS.extractQueueSize,
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
    renderer ??= createRenderer(options.chromiumPath ?? DEFAULTS.chromiumPath);
    const rendered = await renderer.render(
      { fetcher, userAgent: limits.userAgent, maxBytes: limits.maxBytes, document: page },
      deadline,
    );
    const job = { body: rendered.html, contentType: 'text/html', url: rendered.url, request };
    return extract(job, deadline, false, tenant);
  }

  async function readOutput(request: ReaderRequest, signal?: CancelSignal, tenant = ''): Promise<ReaderOutput> {
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
    const deadline = createDeadline(request.timeout ?? DEFAULTS.timeoutSeconds, signal);
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
    await options.cache.set(key, text, options.cacheTtlSeconds ?? DEFAULTS.cacheTtlSeconds);
    return outputOf(json, text);
  }

  return {
    read: async (request, signal, tenant) => (await readOutput(request, signal, tenant)).result,
    readOutput,
    extraction: () => pool.stats(),
    async warmUp() {
      const deadline = createDeadline(DEFAULTS.timeoutSeconds);
      try {
        // Reads queued together each start a thread of their own (extract-pool.ts).
        const reads = Array.from({ length: threads }, (_, n) =>
          pool.read(WARM_UP_PAGE, deadline, { lane: `warm-up ${n}` }),
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
