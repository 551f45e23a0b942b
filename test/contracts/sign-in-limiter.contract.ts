import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AttemptOutcome,
  IN_FLIGHT_MS,
  type SignInAttempt,
  type SignInLimiter,
  type Subject,
} from '../../src/services/accounts/sign-in-limiter.js';

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

    const attempt = async (subjects: Subject[]): Promise<SignInAttempt> => {
      const outcome = await f.limiter.begin(subjects);
      expect(outcome.wait).toBe(0);
      return outcome.attempt!;
    };
    const wait = async (subjects: Subject[]): Promise<number> => {
      const outcome = await f.limiter.begin(subjects);
      expect(outcome.attempt).toBeUndefined();
      return outcome.wait;
    };

    it('lets the free failures through, then slows down: 1 s, 2 s, 4 s … up to the ceiling, never a lockout', async () => {
      const s = [{ key: 'pair:a@b.c|1.2.3.4', free: 2 }];
      for (let i = 0; i < 2; i++) await (await attempt(s)).failed();
      const waits: number[] = [];
      for (let i = 0; i < 6; i++) {
        waits.push(await wait(s));
        f.advance(waits.at(-1)! * 1000);
        await (await attempt(s)).failed();
      }
      expect(waits).toEqual([1, 2, 4, 8, 10, 10]);
    });

    it('counts subjects apart and waits for the slowest', async () => {
      const address = { key: 'ip:9.9.9.9', free: 0 };
      const account = { key: 'account:x@y.z', free: 5 };
      await (await attempt([address, account])).failed();
      await (await attempt([account])).abandoned();
      expect(await wait([address])).toBe(2);
      expect(await wait([account, address])).toBe(2);
      await (await attempt([{ key: 'ip:8.8.8.8', free: 0 }])).failed();
    });

    it('a success clears the subjects it names; the others forget the attempt', async () => {
      const address = { key: 'ip:7.7.7.7', free: 0 };
      const pair = { key: 'pair:q@r.s|7.7.7.7', free: 0 };
      await (await attempt([address, pair])).failed();
      f.advance(2000);
      await (await attempt([address, pair])).succeeded([pair]);
      await (await attempt([pair])).abandoned();
      // The address still holds its one failure (a wait of 2 s from the last attempt), not two (4 s).
      expect(await wait([address])).toBe(2);
    });

    it('an abandoned attempt is held against no one', async () => {
      const s = [{ key: 'account:ab@c.d', free: 1 }];
      await (await attempt(s)).abandoned();
      await (await attempt(s)).failed();
      expect(await wait(s)).toBe(1);
    });

    it('counts each of 60 concurrent attempts before any ends: only the free ones pass', async () => {
      const s = [{ key: 'pair:burst@e.f|1.1.1.1', free: 5 }];
      const outcomes: AttemptOutcome[] = await Promise.all(Array.from({ length: 60 }, () => f.limiter.begin(s)));
      const passed = outcomes.filter((o) => o.attempt !== undefined);
      expect(passed).toHaveLength(5);
      expect(outcomes.filter((o) => o.wait > 0)).toHaveLength(55);
      await Promise.all(passed.map((o) => o.attempt!.failed()));
    });

    it('past the free failures, one attempt at a time: a second waits while the first is in flight', async () => {
      const s = [{ key: 'account:one@g.h', free: 1 }];
      await (await attempt(s)).failed();
      f.advance(1000);
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => f.limiter.begin(s)));
      const passed = outcomes.filter((o) => o.attempt !== undefined);
      expect(passed).toHaveLength(1);
      f.advance(IN_FLIGHT_MS / 2); // past its back-off, not past the hold
      expect(await wait(s)).toBe(1);
      await passed[0]!.attempt!.failed();
      // Its back-off runs from its answer.
      expect(await wait(s)).toBe(2);
      f.advance(2000);
      await (await attempt(s)).failed();
    });

    it('a hold whose attempt never ended lapses', async () => {
      const s = [{ key: 'account:lost@i.j', free: 0 }];
      await attempt(s); // its process died before it ended
      f.advance(5000);
      expect(await wait(s)).toBe(1);
      f.advance(IN_FLIGHT_MS);
      await (await attempt(s)).failed();
    });
  });
}
