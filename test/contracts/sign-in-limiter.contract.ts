import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SignInLimiter } from '../../src/services/accounts/sign-in-limiter.js';

export interface SignInLimiterFixture {
  limiter: SignInLimiter;
  /** Moves the limiter's clock forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

/** The sign-in limiter's contract, with a 10 s ceiling: every implementation runs this same suite. */
export function runSignInLimiterContract(label: string, setup: (maxDelayMs: number) => Promise<SignInLimiterFixture>) {
  describe(`sign-in limiter contract: ${label}`, () => {
    let f: SignInLimiterFixture;
    beforeEach(async () => {
      f = await setup(10_000);
    });
    afterEach(() => f.close());

    it('lets the free failures through, then slows down: 1 s, 2 s, 4 s … up to the ceiling, never a lockout', async () => {
      const s = [{ key: 'pair:a@b.c|1.2.3.4', free: 2 }];
      for (let i = 0; i < 2; i++) {
        expect(await f.limiter.retryAfter(s)).toBe(0);
        await f.limiter.fail(s);
      }
      const waits: number[] = [];
      for (let i = 0; i < 6; i++) {
        waits.push(await f.limiter.retryAfter(s));
        f.advance(waits.at(-1)! * 1000);
        expect(await f.limiter.retryAfter(s)).toBe(0);
        await f.limiter.fail(s);
      }
      expect(waits).toEqual([1, 2, 4, 8, 10, 10]);
    });

    it('counts subjects apart and waits for the slowest', async () => {
      const address = { key: 'ip:9.9.9.9', free: 0 };
      const account = { key: 'account:x@y.z', free: 5 };
      await f.limiter.fail([address, account]);
      await f.limiter.fail([address, account]);
      expect(await f.limiter.retryAfter([account])).toBe(0);
      expect(await f.limiter.retryAfter([address])).toBe(4);
      expect(await f.limiter.retryAfter([account, address])).toBe(4);
      expect(await f.limiter.retryAfter([{ key: 'ip:8.8.8.8', free: 0 }])).toBe(0);
    });

    it('a success clears the subjects it names', async () => {
      const address = { key: 'ip:7.7.7.7', free: 0 };
      const pair = { key: 'pair:q@r.s|7.7.7.7', free: 0 };
      await f.limiter.fail([address, pair]);
      await f.limiter.succeed([pair]);
      expect(await f.limiter.retryAfter([pair])).toBe(0);
      expect(await f.limiter.retryAfter([address])).toBeGreaterThan(0);
    });
  });
}
