import { invalidField } from '../../errors/errors.js';
import { DEFAULT_COLLECTION, type SearchDocument } from '../types.js';
import { segmentCjk } from './cjk.js';

/** A document checked and normalised once, in the form every backend stores. */
export interface PreparedDocument {
  collection: string;
  url: string;
  title: string;
  content: string;
  site: string | null;
  host: string;
  published: string | null;
  publishedMs: number | null;
  /** Title and content with CJK runs segmented: what the full-text index sees. */
  indexTitle: string;
  indexContent: string;
}

export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined; // callers decide: a bad url is a field error, not a crash
  }
}

/** ISO date-time of a publish date, or undefined when it cannot be read as a date. */
export function normalisePublished(value: string): { iso: string; ms: number } | undefined {
  const ms = Date.parse(value.trim());
  if (Number.isNaN(ms)) return undefined;
  return { iso: new Date(ms).toISOString(), ms };
}

export function prepareDocument(doc: SearchDocument): PreparedDocument {
  if (typeof doc.url !== 'string' || doc.url.length === 0) throw invalidField('url', 'must be a non-empty string');
  const host = hostOf(doc.url);
  if (host === undefined || host === '') throw invalidField('url', `must be an absolute URL: ${doc.url}`);
  if (typeof doc.title !== 'string') throw invalidField('title', 'must be a string');
  if (typeof doc.content !== 'string') throw invalidField('content', 'must be a string');
  const collection = doc.collection ?? DEFAULT_COLLECTION;
  if (typeof collection !== 'string' || collection.length === 0) {
    throw invalidField('collection', 'must be a non-empty string');
  }
  let published: { iso: string; ms: number } | undefined;
  if (doc.published !== undefined && doc.published !== null && doc.published !== '') {
    published = normalisePublished(String(doc.published));
    if (!published) throw invalidField('published', `must be an ISO 8601 date: ${doc.published}`);
  }
  const site = typeof doc.site === 'string' && doc.site.trim() !== '' ? doc.site.trim() : null;
  return {
    collection,
    url: doc.url,
    title: doc.title,
    content: doc.content,
    site,
    host,
    published: published?.iso ?? null,
    publishedMs: published?.ms ?? null,
    indexTitle: segmentCjk(doc.title),
    indexContent: segmentCjk(doc.content),
  };
}

/** Site name shown to users: the document's own, else the host without `www.`. */
export function siteName(site: string | null | undefined, host: string): string {
  return site ?? host.replace(/^www\./, '');
}
