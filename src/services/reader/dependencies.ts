import { missingReadabilityMethods, READABILITY_METHODS } from './reader-readability.js';

/** A dependency the reader runs with a change of ours, and whether that change is in effect. */
export interface DependencyChange {
  name: string;
  version: string;
  /** `vendored`: a changed copy shipped in this package (vendor/); `subclass`: a subclass of ours overrides its methods. */
  how: 'vendored' | 'subclass';
  change: string;
  inEffect: boolean;
}

/**
 * What the reader runs with that is not the dependencies as published: logged at start-up, so that
 * an upgrade that silently turns a change off shows there. The vendored copies are always in effect
 * (they are this package's own files); ReaderReadability's overrides only while Readability still has those methods.
 */
export function readerDependencyChanges(): DependencyChange[] {
  const missing = missingReadabilityMethods();
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
      change:
        "table tests read each node's child list once; a table's rows are found once per table, also where the DOM has no `rows` (linkedom)",
      inEffect: true,
    },
    {
      name: '@mozilla/readability',
      version: '0.6.0',
      how: 'subclass',
      change: `ReaderReadability overrides ${READABILITY_METHODS.join(', ')} with faster ones giving the same answers${missing.length ? `; missing here: ${missing.join(', ')}` : ''}`,
      inEffect: missing.length === 0,
    },
  ];
}
