import { Readability } from '@mozilla/readability';

/** A dependency the reader runs with a change of ours, and whether that change is in effect. */
export interface DependencyChange {
  name: string;
  version: string;
  /** `vendored`: a changed copy shipped in this package (vendor/); `instance`: methods replaced on our own instance. */
  how: 'vendored' | 'instance';
  change: string;
  inEffect: boolean;
}

/** The private Readability methods extract.ts replaces on its instance (each only when present). */
export const READABILITY_METHODS = [
  '_isValidByline',
  '_isProbablyVisible',
  '_isElementWithoutContent',
  '_grabArticle',
  '_getAllNodesWithTag',
] as const;

/**
 * What the reader runs with that is not the dependencies as published: logged at start-up, so that
 * an upgrade that silently turns a change off shows there. The vendored copies are always in effect
 * (they are this package's own files); Readability's replacements only while it still has those methods.
 */
export function readerDependencyChanges(): DependencyChange[] {
  const proto = Readability.prototype as unknown as Record<string, unknown>;
  const missing = READABILITY_METHODS.filter((name) => typeof proto[name] !== 'function');
  return [
    {
      name: 'linkedom',
      version: '0.18.14',
      how: 'vendored',
      change: "a node's listener map is made on its first addEventListener",
      inEffect: true,
    },
    {
      name: '@joplin/turndown-plugin-gfm',
      version: '1.0.68',
      how: 'vendored',
      change: "table tests read each node's child list once",
      inEffect: true,
    },
    {
      name: '@mozilla/readability',
      version: '0.6.0',
      how: 'instance',
      change: `faster ${READABILITY_METHODS.join(', ')} with the same answers${missing.length ? `; missing here: ${missing.join(', ')}` : ''}`,
      inEffect: missing.length === 0,
    },
  ];
}
