import type { Browser, Route } from 'playwright-core';
import type { Deadline } from '../../net/deadline.js';
import type { Fetcher, OutboundRequest } from '../../net/fetcher.js';
import { isNetError, type NetError } from '../../net/net-error.js';
import { upstreamFailure } from './errors.js';

/**
 * Renders pages whose text is built by scripts, in Debian's Chromium driven by playwright-core. The
 * browser never touches the network itself: every request it makes is intercepted and fetched by
 * the reader's guarded agent (the same address checks as the reader's own fetches, at connect time),
 * then handed back to the page. The browser starts on first use and is reused; each render gets a
 * fresh context.
 */

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // WebRTC could otherwise reach local addresses without going through the interception.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** Requests a single render may make; pages past it are abusing the renderer. */
const MAX_SUBREQUESTS = 300;

export interface RenderOptions {
  fetcher: Fetcher;
  userAgent: string;
  maxBytes: number;
  /** The page the reader already fetched, served to the browser without fetching it again. */
  document: { url: string; contentType: string; body: Buffer };
}

export interface Renderer {
  render(options: RenderOptions, deadline: Deadline): Promise<{ html: string; url: string }>;
  close(): Promise<void>;
}

const DROPPED_REQUEST_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'accept-encoding',
  'transfer-encoding',
]);
const DROPPED_RESPONSE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection']);

async function relay(route: Route, options: RenderOptions, deadline: Deadline): Promise<void> {
  const request = route.request();
  const url = new URL(request.url());
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
  for (const [name, value] of Object.entries(request.headers())) {
    if (!DROPPED_REQUEST_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  const response = await options.fetcher.send(
    { url, method: request.method() as OutboundRequest['method'], headers, body: request.postDataBuffer() ?? null },
    { maxBytes: options.maxBytes, idleTimeoutMs: Math.max(1, deadline.remainingMs()), signal: deadline.signal },
  );
  const responseHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue;
    responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  await route.fulfill({ status: response.status, headers: responseHeaders, body: response.body });
}

export function createRenderer(executablePath: string): Renderer {
  let browser: Promise<Browser> | undefined;
  const launch = async (): Promise<Browser> => {
    const current = browser && (await browser.catch(() => undefined));
    if (current?.isConnected()) return current;
    // Imported here: playwright-core takes some 30 MB of heap, which only the browser path needs.
    const { chromium } = await import('playwright-core');
    browser = chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS });
    return browser;
  };

  return {
    async render(options, deadline) {
      let instance: Browser;
      try {
        instance = await launch();
      } catch (error) {
        browser = undefined;
        throw upstreamFailure(options.document.url, `the headless browser could not start (${executablePath})`, error);
      }
      const context = await instance.newContext({
        userAgent: options.userAgent,
        serviceWorkers: 'block',
        acceptDownloads: false,
      });
      const stop = () => void context.close();
      deadline.signal.addEventListener('abort', stop, { once: true });
      let requests = 0;
      let servedDocument = false;
      let blocked: NetError | undefined;
      try {
        await context.routeWebSocket(/.*/, (socket) => socket.close());
        await context.route('**/*', async (route) => {
          const request = route.request();
          if (!servedDocument && request.isNavigationRequest() && request.url() === options.document.url) {
            servedDocument = true;
            return route.fulfill({
              status: 200,
              contentType: options.document.contentType,
              body: options.document.body,
            });
          }
          if (!/^https?:/i.test(request.url()) || ++requests > MAX_SUBREQUESTS) return route.abort('blockedbyclient');
          try {
            await relay(route, options, deadline);
          } catch (error) {
            const refused = isNetError(error) && error.failure === 'blocked';
            if (refused) blocked ??= error;
            // The page sees a failed request, as it would for any unreachable resource.
            await route.abort(refused ? 'blockedbyclient' : 'failed').catch(() => undefined);
          }
        });
        const page = await context.newPage();
        await page.goto(options.document.url, { waitUntil: 'load', timeout: Math.max(1, deadline.remainingMs()) });
        // Script-built pages often fetch their text after `load`; wait a little for the network to go
        // quiet, but never past the deadline, and render whatever is there if it never does.
        await page
          .waitForLoadState('networkidle', { timeout: Math.min(3_000, Math.max(1, deadline.remainingMs() - 500)) })
          .catch(() => undefined);
        return { html: await page.content(), url: page.url() };
      } catch (error) {
        if (deadline.timedOut())
          throw upstreamFailure(options.document.url, `timed out after ${deadline.seconds} s`, error);
        const reason = blocked
          ? `a request of the page was refused: ${blocked.message}`
          : (error as Error).message.split('\n')[0];
        throw upstreamFailure(options.document.url, `rendering failed: ${reason}`, error);
      } finally {
        deadline.signal.removeEventListener('abort', stop);
        await context.close().catch(() => undefined);
      }
    },
    async close() {
      const current = browser && (await browser.catch(() => undefined));
      browser = undefined;
      await current?.close();
    },
  };
}
