import { invalidField } from '../../errors/errors.js';
import type { Recency } from '../types.js';

const DAY_MS = 86_400_000;
const PERIOD_DAYS: Record<Exclude<Recency, 'noLimit'>, number> = {
  oneDay: 1,
  oneWeek: 7,
  oneMonth: 30,
  oneYear: 365,
};

/**
 * Earliest publish time (ms) that passes the filter, or undefined for no filter. The cut-off is
 * floored to the start of its UTC day because most pages state a date, not a time: a page dated
 * the first day of the window is inside it.
 */
export function recencyCutoff(recency: Recency | undefined, now: Date = new Date()): number | undefined {
  if (recency === undefined || recency === 'noLimit') return undefined;
  const days = PERIOD_DAYS[recency];
  if (days === undefined) throw invalidField('search_recency_filter', `unknown value ${String(recency)}`);
  const cutoff = now.getTime() - days * DAY_MS;
  return cutoff - (cutoff % DAY_MS);
}

/**
 * The bare domain of a domain filter, lower-cased. Users paste URLs and `www.` forms; a scheme,
 * path, port and trailing dot are dropped so that `https://Example.com/x` filters as `example.com`.
 */
export function normaliseDomain(domain: string | undefined): string | undefined {
  if (domain === undefined) return undefined;
  let d = domain.trim().toLowerCase();
  if (d === '') return undefined;
  d = d
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/\.$/, '');
  if (d.startsWith('*.')) d = d.slice(2);
  if (d === '' || /\s/.test(d)) throw invalidField('search_domain_filter', `not a domain: ${domain}`);
  return d;
}

/** The host's labels reversed (`www.example.com` → `com.example.www`): a domain and its subdomains sort together. */
export const hostKey = (host: string) => host.split('.').reverse().join('.');

/** True when `host` is `domain` or one of its subdomains. */
export function hostInDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

export const MAX_COUNT = 50;

/** `count` of a query: an integer 1-50, as the API allows. */
export function checkCount(count: number): number {
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT) {
    throw invalidField('count', `must be an integer between 1 and ${MAX_COUNT}`);
  }
  return count;
}
