import { invalidField } from '../../errors/errors.js';
import { createDeadline } from '../../net/deadline.js';
import type { FetchedBody } from '../../net/fetch-url.js';
import type { Fetcher } from '../../net/fetcher.js';
import { isNetError, type NetError, netApiError } from '../../net/net-error.js';
import type { MediaBudget } from './budget.js';

/** How media URLs are fetched: a guarded fetcher (made on first use), its redirects and user agent. */
export interface MediaFetch {
  fetcher: () => Fetcher;
  maxRedirects: number;
  userAgent: string;
}

/** Bytes of one media item and the content type its source declared ('' when none). */
export interface MediaBytes {
  bytes: Buffer;
  contentType: string;
  /** False when only the first bytes were read (`SourceRules.enough`). */
  complete: boolean;
  /** The whole item's size: its length when complete, else the length its server declared. */
  size: number | undefined;
}

export interface SourceRules {
  /** The request field, e.g. `messages[0].content[1].image_url.url`. */
  field: string;
  maxBytes: number;
  /** Bare Base64 (no `data:` prefix) is accepted. */
  bareBase64: boolean;
  timeoutSeconds: number;
  /** Stop fetching once the first bytes tell enough (see fetchPage's `enough`). */
  enough?: (head: Buffer, declaredLength: number | undefined) => boolean;
  /** Ask the server for this many first bytes only (fetchPage's `rangeBytes`). */
  rangeBytes?: number;
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export const tooLarge = (field: string, size: string, maxBytes: number) =>
  invalidField(field, `the content is ${size}; the limit is ${mb(maxBytes)}`);

function decodeBase64(text: string, rules: SourceRules, what: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw invalidField(rules.field, `${what} is not valid Base64`);
  if (Math.floor((compact.length * 3) / 4) - 2 > rules.maxBytes) {
    throw tooLarge(rules.field, 'over the limit', rules.maxBytes);
  }
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > rules.maxBytes) throw tooLarge(rules.field, `${bytes.length} bytes`, rules.maxBytes);
  return bytes;
}

function decodeDataUrl(url: string, rules: SourceRules): MediaBytes {
  const comma = url.indexOf(',');
  if (comma < 0) throw invalidField(rules.field, 'the data: URL has no comma before its data');
  const meta = url.slice(5, comma).split(';');
  const contentType = (meta[0] ?? '').trim().toLowerCase();
  const payload = url.slice(comma + 1);
  if (meta.slice(1).some((m) => m.trim().toLowerCase() === 'base64')) {
    return whole(decodeBase64(payload, rules, 'the data: URL'), contentType);
  }
  let bytes: Buffer;
  try {
    bytes = Buffer.from(decodeURIComponent(payload), 'utf8');
  } catch {
    throw invalidField(rules.field, 'the data: URL is not valid percent-encoding');
  }
  if (bytes.length > rules.maxBytes) throw tooLarge(rules.field, `${bytes.length} bytes`, rules.maxBytes);
  return whole(bytes, contentType);
}

const whole = (bytes: Buffer, contentType: string): MediaBytes => ({
  bytes,
  contentType,
  complete: true,
  size: bytes.length,
});

/** True when the value names an http(s) location rather than carrying the bytes. */
export const isHttpUrl = (value: string) => /^https?:\/\//i.test(value.trim());

/**
 * The bytes of a media item: a `data:` URL or bare Base64 decoded, an http(s) URL fetched through the
 * private-network guard with a byte bound and a deadline, both also the request's (`budget`).
 * Refusals name the field (1214); failures on the far side are 1234.
 */
export async function loadMedia(
  value: string,
  rules: SourceRules,
  via: MediaFetch,
  budget: MediaBudget,
): Promise<MediaBytes> {
  const text = value.trim();
  if (/^data:/i.test(text)) return decodeDataUrl(text, rules);
  if (isHttpUrl(text)) return fetchMedia(text, rules, via, budget);
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) || !rules.bareBase64) {
    const accepted = rules.bareBase64 ? 'an http(s) URL, a data: URL or Base64' : 'an http(s) URL or a data: URL';
    throw invalidField(rules.field, `must be ${accepted}`);
  }
  return whole(decodeBase64(text, rules, 'the value'), '');
}

async function fetchMedia(url: string, rules: SourceRules, via: MediaFetch, budget: MediaBudget): Promise<MediaBytes> {
  budget.check(rules.field);
  const deadline = createDeadline(rules.timeoutSeconds, budget.deadline.signal);
  // The item's own limit refuses a larger declared size; the request's budget bounds what is read.
  const maxBytes = budget.allowance(rules.maxBytes);
  let page: FetchedBody;
  try {
    page = await via.fetcher().get(
      url,
      {
        maxBytes,
        maxDeclaredBytes: rules.maxBytes,
        maxRedirects: via.maxRedirects,
        idleTimeoutMs: rules.timeoutSeconds * 1000,
        userAgent: via.userAgent,
        ...(rules.enough ? { enough: rules.enough } : {}),
        ...(rules.rangeBytes ? { rangeBytes: rules.rangeBytes } : {}),
      },
      deadline,
    );
  } catch (error) {
    if (budget.deadline.timedOut()) throw budget.timedOut(rules.field);
    if (!isNetError(error)) throw error;
    // Read up to the request's budget (not to the item's own, larger limit): the budget is what ran out.
    if (budget.limitedBy(rules.maxBytes) && error.failure === 'too-large' && error.details.limit === maxBytes) {
      throw budget.overBudget(rules.field);
    }
    throw describe(error, url, rules);
  } finally {
    deadline.dispose();
  }
  budget.spend(page.body.length);
  return {
    bytes: page.body,
    contentType: page.contentType.split(';')[0]!.trim().toLowerCase(),
    complete: page.complete,
    size: page.complete ? page.body.length : page.declaredLength,
  };
}

/** A fetch's failure, addressed to the content item's field. */
function describe(error: NetError, url: string, rules: SourceRules): Error {
  // An oversized body is the client's input here, not a failure of the far side.
  if (error.failure === 'too-large') return tooLarge(rules.field, 'larger', rules.maxBytes);
  return netApiError(error, rules.field, `Could not fetch ${rules.field} (${url})`);
}
