import { byTag, type DomDocument, type DomElement, first } from './dom.js';

/** What the reader reports about a page besides its content (the spec's reader_result fields). */
export interface PageMetadata {
  title: string;
  description: string;
  metadata: Record<string, string>;
  stylesheets: Record<string, { type: string }>;
  publishedTime?: string;
}

const META_KEYS = ['keywords', 'viewport', 'description', 'format-detection'] as const;

const clean = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();

/** The page's `<meta>` contents by `name`, `property` and `itemprop` (lower-cased), the first non-empty of each. */
type MetaIndex = Map<string, string>;

/**
 * The elements metadata comes from (`meta`, `link`, `script`, `time`), by tag, found in one walk of
 * the page (dom.ts, byTag): a selector per kind would scan the whole page each time (and linkedom
 * compiles every selector). The caller may pass lists it found in a walk of its own.
 */
type Sources = Map<string, DomElement[]>;
export const METADATA_TAGS: readonly string[] = ['meta', 'link', 'script', 'time'];

const STYLESHEET = /(?:^|\s)stylesheet(?:$|\s)/i;

function indexMeta(found: Sources): MetaIndex {
  const index: MetaIndex = new Map();
  // `meta[content]`
  for (const meta of (found.get('meta') ?? []).filter((element) => element.hasAttribute('content'))) {
    const content = clean(meta.getAttribute('content'));
    if (!content) continue;
    for (const attribute of ['name', 'property', 'itemprop']) {
      const value = meta.getAttribute(attribute)?.trim().toLowerCase();
      const key = value && `${attribute}:${value}`;
      if (key && !index.has(key)) index.set(key, content);
    }
  }
  return index;
}

function metaContent(index: MetaIndex, names: readonly string[]): string | undefined {
  for (const name of names) {
    for (const attribute of ['name', 'property', 'itemprop']) {
      const value = index.get(`${attribute}:${name.toLowerCase()}`);
      if (value) return value;
    }
  }
  return undefined;
}

const PUBLISHED_META = [
  'article:published_time',
  'og:published_time',
  'datePublished',
  'pubdate',
  'publishdate',
  'publish-date',
  'DC.date.issued',
  'dcterms.created',
  'sailthru.date',
  'parsely-pub-date',
  'date',
];

function jsonLdDate(found: Sources): string | undefined {
  // `script[type="application/ld+json" i]`
  const jsonLd = (found.get('script') ?? []).filter(
    (script) => script.getAttribute('type')?.toLowerCase() === 'application/ld+json',
  );
  for (const script of jsonLd) {
    let data: unknown;
    try {
      data = JSON.parse(script.textContent ?? '');
    } catch {
      continue; // Broken JSON-LD is common on real pages; the other scripts may still carry a date.
    }
    const found = findDatePublished(data, 0);
    if (found) return found;
  }
  return undefined;
}

function findDatePublished(value: unknown, depth: number): string | undefined {
  if (depth > 6 || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findDatePublished(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  if (typeof record['datePublished'] === 'string' && record['datePublished'].trim())
    return record['datePublished'].trim();
  for (const key of ['@graph', 'mainEntity', 'mainEntityOfPage']) {
    const found = findDatePublished(record[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

export function readMetadata(
  doc: DomDocument,
  baseUrl: string,
  found: Sources = byTag(doc, new Set(METADATA_TAGS)),
): PageMetadata {
  const index = indexMeta(found);
  const title =
    clean(first(doc, 'title')?.textContent) ||
    metaContent(index, ['og:title', 'twitter:title']) ||
    clean(first(doc, 'h1')?.textContent);
  const description = metaContent(index, ['description', 'og:description', 'twitter:description']) ?? '';
  const metadata: Record<string, string> = {};
  for (const key of META_KEYS) metadata[key] = metaContent(index, [key]) ?? '';
  const stylesheets: Record<string, { type: string }> = {};
  // `link[rel~="stylesheet" i][href]`
  const links = (found.get('link') ?? []).filter(
    (link) => STYLESHEET.test(link.getAttribute('rel') ?? '') && link.hasAttribute('href'),
  );
  for (const link of links) {
    try {
      stylesheets[new URL(link.getAttribute('href') ?? '', baseUrl).href] = {
        type: clean(link.getAttribute('type')) || 'text/css',
      };
    } catch {
      // An href that is not a URL names no stylesheet; the rest of the list still counts.
    }
  }
  const publishedTime =
    metaContent(index, PUBLISHED_META) ??
    jsonLdDate(found) ??
    // `time[itemprop="datePublished" i]`
    (clean(
      (found.get('time') ?? [])
        .find((time) => time.getAttribute('itemprop')?.toLowerCase() === 'datepublished')
        ?.getAttribute('datetime'),
    ) ||
      undefined);
  return { title, description, metadata, stylesheets, ...(publishedTime ? { publishedTime } : {}) };
}
