import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { readBounded, TooLargeError, UnsupportedEncodingError } from './body-reader.js';
import type { Deadline } from './deadline.js';
import { NetError } from './net-error.js';

export interface FetchedBody {
  /** URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** False when `limits.enough` stopped the read before the end of the body. */
  complete: boolean;
  /** The body's length as the server declared it (`Content-Length`), when it did. */
  declaredLength: number | undefined;
}

export interface FetchLimits {
  /** Bytes read at most (after decompression). */
  maxBytes: number;
  /** A larger declared `Content-Length` is refused before reading; default `maxBytes`. */
  maxDeclaredBytes?: number;
  maxRedirects: number;
  /** Longest wait for the headers, and between two reads of the body (slow-loris guard). */
  idleTimeoutMs: number;
  userAgent: string;
  /** `Accept`; default: pages, documents, then anything. */
  accept?: string;
  /**
   * Stop reading once the first bytes tell enough (e.g. a file's format); given the bytes so far
   * and the declared length. The rest of the body is then never fetched.
   */
  enough?: (head: Buffer, declaredLength: number | undefined) => boolean;
  /**
   * Ask for the first bytes only (`Range: bytes=0-<n-1>`, unencoded); a server that ignores it
   * sends the whole body, which `enough` can still cut short.
   */
  rangeBytes?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,application/json;q=0.8,application/pdf;q=0.7,*/*;q=0.5';

/** Parses a URL that may be fetched: absolute, http or https. `label` names it in the refusal. */
export function parseFetchableUrl(text: string, label = 'url'): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new NetError('invalid-url', `${label} is not a valid absolute URL (${text})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetError(
      'invalid-url',
      `${label} must use http or https, not ${url.protocol.replace(':', '')} (${text})`,
    );
  }
  return url;
}

export const header = (headers: Record<string, string | string[] | undefined>, name: string): string => {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
};

/**
 * GET with manual redirects (each hop re-parsed, and re-checked by a guarded dispatcher when it
 * connects), a body bounded after decompression, the deadline's total time and an idle timeout.
 * Failures are NetErrors; a deadline ended by the caller (not by time) rethrows the caller's reason.
 */
export async function fetchUrl(
  dispatcher: Dispatcher,
  startUrl: string,
  limits: FetchLimits,
  deadline: Deadline,
): Promise<FetchedBody> {
  let url = parseFetchableUrl(startUrl);
  for (let hop = 0; ; hop++) {
    const idle = Math.max(1, Math.min(limits.idleTimeoutMs, deadline.remainingMs()));
    let response: Dispatcher.ResponseData;
    try {
      response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: requestHeaders(limits),
        signal: deadline.signal,
        headersTimeout: idle,
        bodyTimeout: idle,
      });
    } catch (error) {
      throw describeFailure(error, startUrl, url, deadline, hop > 0);
    }
    const { statusCode, headers, body } = response;
    const location = header(headers, 'location');
    if (REDIRECTS.has(statusCode) && location) {
      discard(body);
      if (hop >= limits.maxRedirects) throw new NetError('redirects', `more than ${limits.maxRedirects} redirects`);
      url = parseFetchableUrl(new URL(location, url).href, 'redirect target');
      continue;
    }
    if (statusCode === 416 && limits.rangeBytes !== undefined) {
      // Not even the first byte exists: an empty body.
      discard(body);
      return {
        url: url.href,
        status: statusCode,
        contentType: header(headers, 'content-type'),
        body: Buffer.alloc(0),
        complete: true,
        declaredLength: 0,
      };
    }
    if (statusCode >= 400) {
      discard(body);
      throw new NetError('status', `the server answered HTTP ${statusCode}`, { status: statusCode });
    }
    const declared = header(headers, 'content-length');
    const length = declared === '' ? Number.NaN : Number(declared);
    const maxDeclared = limits.maxDeclaredBytes ?? limits.maxBytes;
    if (Number.isFinite(length) && length > maxDeclared) {
      discard(body);
      throw new NetError('too-large', `response too large (${length} bytes, limit ${maxDeclared})`, {
        limit: maxDeclared,
      });
    }
    const encoding = header(headers, 'content-encoding');
    // A declared length counts the encoded bytes: it says nothing of the decoded size.
    const declaredLength =
      statusCode === 206
        ? rangeTotal(header(headers, 'content-range'))
        : Number.isFinite(length) && (encoding === '' || encoding === 'identity')
          ? length
          : undefined;
    const { enough } = limits;
    let stopped = false;
    const stop =
      enough &&
      ((head: Buffer) => {
        stopped = enough(head, declaredLength);
        return stopped;
      });
    try {
      const bytes = await readBounded(body, encoding, limits.maxBytes, stop);
      const partial = stopped || statusCode === 206;
      const complete = !partial || (declaredLength !== undefined && bytes.length >= declaredLength);
      return {
        url: url.href,
        status: statusCode,
        contentType: header(headers, 'content-type'),
        body: bytes,
        complete,
        declaredLength,
      };
    } catch (error) {
      throw describeFailure(error, startUrl, url, deadline, hop > 0);
    }
  }
}

function requestHeaders(limits: FetchLimits): Record<string, string> {
  const headers = {
    'user-agent': limits.userAgent,
    accept: limits.accept ?? ACCEPT,
    'accept-encoding': 'gzip, deflate, br',
  };
  if (limits.rangeBytes === undefined) return headers;
  return { ...headers, 'accept-encoding': 'identity', range: `bytes=0-${limits.rangeBytes - 1}` };
}

/** The whole length in a `Content-Range: bytes 0-1023/16777216`, when the server gives it. */
function rangeTotal(value: string): number | undefined {
  const total = /\/\s*(\d+)\s*$/.exec(value)?.[1];
  return total === undefined ? undefined : Number(total);
}

/**
 * Drops a body that is not wanted (a redirect's, an error page's, an oversized one). Destroying an
 * unfinished undici body emits its own abort error, which carries nothing about the page.
 */
export function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

const causes = (error: unknown): unknown[] => {
  const chain: unknown[] = [];
  for (let current = error; current && chain.length < 5; current = (current as { cause?: unknown }).cause) {
    chain.push(current);
  }
  return chain;
};

/** A transport failure in the vocabulary (net-error.ts); the caller's own abort as its reason. */
function describeFailure(error: unknown, startUrl: string, url: URL, deadline: Deadline, redirected: boolean): Error {
  const chain = causes(error);
  const net = chain.find((e): e is NetError => e instanceof NetError);
  if (net?.failure === 'blocked') {
    const via = redirected ? `it redirects to ${url.href}, and ` : '';
    return new NetError('blocked', `${startUrl} is refused: ${via}${net.message}`, {}, net);
  }
  if (net) return net;
  if (deadline.timedOut()) return new NetError('timeout', `timed out after ${deadline.seconds} s`, {}, error);
  if (deadline.signal.aborted)
    return deadline.signal.reason instanceof Error ? deadline.signal.reason : new Error('aborted');
  return transportFailure(error, url);
}

/** What undici, the guarded connector and the body reader throw, as NetErrors. */
export function transportFailure(error: unknown, url: URL): NetError {
  const chain = causes(error);
  const net = chain.find((e): e is NetError => e instanceof NetError);
  if (net?.failure === 'blocked') return new NetError('blocked', `${url.href} is refused: ${net.message}`, {}, net);
  if (net) return net;
  const tooLarge = chain.find((e): e is TooLargeError => e instanceof TooLargeError);
  if (tooLarge) {
    return new NetError('too-large', `response too large (limit ${tooLarge.limit} bytes)`, { limit: tooLarge.limit });
  }
  if (error instanceof UnsupportedEncodingError) return new NetError('encoding', error.message);
  const code = (error as { code?: string }).code ?? '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new NetError('stalled', 'timed out: the server stopped sending', {}, error);
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return new NetError('connect', `timed out connecting to ${url.host}`, {}, error);
  const message = error instanceof Error ? error.message : String(error);
  return new NetError('connect', `connection failed: ${code || message}`, {}, error);
}
