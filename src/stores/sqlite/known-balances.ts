import type { OtherCommits } from './other-commits.js';

/** Accounts whose balance is kept in memory at most. */
const MAX_ACCOUNTS = 100_000;

/**
 * Balances as reservations check them, without a query: this process writes every balance it
 * serves (each write is remembered once it has committed), and a commit by any other connection
 * empties the memory (other-commits.ts), so the next check reads the row again.
 */
export class KnownBalances {
  private readonly known = new Map<string, number>();
  private version = -1;

  constructor(
    private readonly otherCommits: OtherCommits,
    private readonly read: (accountId: string) => number,
  ) {}

  get(accountId: string): number {
    const version = this.otherCommits.version();
    if (version !== this.version) {
      this.known.clear();
      this.version = version;
    }
    const known = this.known.get(accountId);
    if (known !== undefined) return known;
    const balance = this.read(accountId);
    this.remember(accountId, balance);
    return balance;
  }

  /** A balance as this process's committed write left it. */
  remember(accountId: string, balance: number): void {
    if (this.known.size >= MAX_ACCOUNTS && !this.known.has(accountId)) this.known.clear();
    this.known.set(accountId, balance);
  }
}
