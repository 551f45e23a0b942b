import { DEFAULT_COLLECTION, type SearchIndex } from '../../search/types.js';

/** Who asks to read a collection: the calling key, its account if it has one, and whether it is the admin's. */
export interface Caller {
  keyId: string;
  accountId: string | undefined;
  admin: boolean;
}

/** The owner name a collection given to this caller carries: its account's, else its key's. */
export function ownerName(caller: Pick<Caller, 'keyId' | 'accountId'>): string {
  return caller.accountId === undefined ? `key:${caller.keyId}` : `account:${caller.accountId}`;
}

/** The owner name for an account a collection is given to. */
export const accountOwner = (accountId: string): string => `account:${accountId}`;

/**
 * Whether `caller` may read `collection`. `web` (what the web-search tool searches) is everyone's;
 * the admin key reads every collection; any other key only the collections given to its account
 * (or, without one, to itself). A collection without an owner is the admin's. Work that no API
 * request carries (commands, benchmarks) has no caller and reads everything.
 */
export async function mayRead(index: SearchIndex, collection: string, caller: Caller | undefined): Promise<boolean> {
  if (collection === DEFAULT_COLLECTION || caller === undefined || caller.admin) return true;
  return (await index.ownerOf(collection)) === ownerName(caller);
}
