import { systemLookup } from './address-guard.js';
import { createAllowList } from './allow-list.js';
import { createRenderer, type Renderer } from './browser.js';
import { cacheKey } from './cache-key.js';
import { decodeBody } from './charset.js';
import { contentKind } from './content-kind.js';
import { createDeadline, type Deadline } from './deadline.js';
import { createGuardedAgent } from './dispatcher.js';
import { upstreamFailure } from './errors.js';
import { type FetchedPage, fetchPage, parseFetchableUrl } from './fetch-page.js';
import { formatPlain } from './format.js';
import { plainResult, readHtml } from './html-reader.js';
import { pdfToText } from './pdf.js';
import type { ReaderRequest, ReaderResult, ReaderServiceOptions } from './types.js';

export interface ReaderService {
  read(request: ReaderRequest, signal?: AbortSignal): Promise<ReaderResult>;
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
};

/** Under this many words, a page that runs scripts is taken to build its text in the browser. */
const SPARSE_WORDS = 30;

export function createReaderService(options: ReaderServiceOptions = {}): ReaderService {
  const agent = createGuardedAgent(createAllowList(options.allowHosts), options.lookup ?? systemLookup);
  const limits = {
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    maxRedirects: options.maxRedirects ?? DEFAULTS.maxRedirects,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
    userAgent: options.userAgent ?? DEFAULTS.userAgent,
  };
  const browserMode = options.browser ?? 'never';
  let renderer: Renderer | undefined;

  async function readHtmlPage(page: FetchedPage, request: ReaderRequest, deadline: Deadline): Promise<ReaderResult> {
    const html = decodeBody(page.body, page.contentType);
    const reading = browserMode === 'always' ? undefined : readHtml(html, page.url, request);
    const sparse = reading !== undefined && reading.words < SPARSE_WORDS && reading.hasScripts;
    if (reading && !(browserMode === 'auto' && sparse)) return reading.result;
    renderer ??= createRenderer(options.chromiumPath ?? DEFAULTS.chromiumPath);
    const rendered = await renderer.render(
      { agent, userAgent: limits.userAgent, maxBytes: limits.maxBytes, document: page },
      deadline,
    );
    return readHtml(rendered.html, rendered.url, request).result;
  }

  async function readFresh(request: ReaderRequest, deadline: Deadline): Promise<ReaderResult> {
    const page = await fetchPage(agent, request.url, limits, deadline);
    const kind = contentKind(page.contentType, page.body);
    switch (kind) {
      case 'html':
        return readHtmlPage(page, request, deadline);
      case 'pdf': {
        const pdf = await pdfToText(page.body).catch((error: unknown) => {
          throw upstreamFailure(request.url, 'the PDF could not be read', error);
        });
        return plainResult(formatPlain(pdf.text, 'text', request), page.url, pdf.title);
      }
      case 'json':
      case 'text': {
        const text = decodeBody(page.body, page.contentType);
        return plainResult(formatPlain(text, kind, request), page.url);
      }
      default:
        throw upstreamFailure(request.url, `unsupported content type ${page.contentType || '(none)'}`);
    }
  }

  return {
    async read(request, signal) {
      parseFetchableUrl(request.url);
      const key = cacheKey(request);
      if (options.cache && !request.no_cache) {
        const hit = await options.cache.get(key);
        if (hit !== undefined) return JSON.parse(hit) as ReaderResult;
      }
      const deadline = createDeadline(request.timeout ?? DEFAULTS.timeoutSeconds, signal);
      let result: ReaderResult;
      try {
        result = await readFresh(request, deadline);
      } finally {
        deadline.dispose();
      }
      // `no_cache` asks for a fresh read and leaves nothing behind: a key holder cannot grow the cache
      // (or the database) with it.
      if (!request.no_cache)
        await options.cache?.set(key, JSON.stringify(result), options.cacheTtlSeconds ?? DEFAULTS.cacheTtlSeconds);
      return result;
    },
    async close() {
      await renderer?.close();
      await agent.close();
    },
  };
}
