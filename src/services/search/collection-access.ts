import { invalidField, notFound } from '../../errors/errors.js';
import { DEFAULT_COLLECTION, type SearchIndex } from '../../search/types.js';
import type { AccountService } from '../accounts/account-service.js';

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

/**
 * Gives `collection` to `account` (an account's id or email) before a crawl or import fills it:
 * that account's keys then read it. Without `account` nothing changes. Refused (1214) for `web`,
 * which is everyone's, and (1233) for an account that does not exist. The account's id, if given.
 */
export async function giveCollection(
  index: SearchIndex,
  accounts: Pick<AccountService, 'findAccount'>,
  collection: string | undefined,
  account: string | undefined,
): Promise<string | undefined> {
  if (account === undefined) return undefined;
  if (collection === undefined || collection === DEFAULT_COLLECTION)
    throw invalidField('account', 'needs a collection other than web (web is everyone’s)');
  const found = await accounts.findAccount(account);
  if (!found) throw notFound(`Account ${account} does not exist`);
  await index.setOwner(collection, accountOwner(found.id));
  return found.id;
}
