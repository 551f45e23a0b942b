import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { HashGate } from '../../../src/services/accounts/hash-gate.js';
import {
  hashPassword,
  needsRehash,
  newPassword,
  PASSWORD_PARAMS,
  verifyPassword,
} from '../../../src/services/accounts/passwords.js';
import { MemorySignInLimiter } from '../../../src/services/accounts/sign-in-limiter.js';
import { legacyHash } from '../../helpers/legacy-hash.js';

describe('passwords (scrypt)', () => {
  it('hashes with OWASP parameters (N=2^16, r=8, p=2, equivalent to 2^17 with p=1), a fresh salt per hash', async () => {
    expect(PASSWORD_PARAMS).toEqual({ N: 2 ** 16, r: 8, p: 2 });
    const password = newPassword();
    expect(password).toMatch(/^[\w-]{22}$/);
    const a = await hashPassword(password);
    const b = await hashPassword(password);
    expect(a).toMatch(/^scrypt\$65536\$8\$2\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(password, a)).toBe(true);
    expect(await verifyPassword(`${password}x`, a)).toBe(false);
    expect(await verifyPassword(password, 'bcrypt$whatever')).toBe(false);
  });

  it('still verifies hashes made with the earlier parameters, and says they need replacing', async () => {
    const old = legacyHash('hunter2');
    expect(await verifyPassword('hunter2', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('hunter2'))).toBe(false);
  });

  it('treats equivalent Unicode spellings of a password alike', async () => {
    const hash = await hashPassword('caf\u00e9');
    expect(await verifyPassword('cafe\u0301', hash)).toBe(true);
  });
});

describe('hash gate (console.hash_concurrency, console.hash_queue)', () => {
  it('runs at most `concurrency` hashes at once and refuses past the queue with 1305, hashing nothing', async () => {
    const gate = new HashGate(2, 1);
    const releases: (() => void)[] = [];
    const hash = vi.fn(() => new Promise<string>((resolve) => releases.push(() => resolve('h'))));
    const running = [gate.run(hash), gate.run(hash), gate.run(hash)];
    await Promise.resolve();
    expect(hash).toHaveBeenCalledTimes(2);
    expect(gate.load).toEqual({ running: 2, waiting: 1 });
    const refused = await gate.run(hash).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 1305, retryAfter: 1 });
    expect(hash).toHaveBeenCalledTimes(2);
    releases.shift()!();
    await running[0];
    expect(hash).toHaveBeenCalledTimes(3);
    while (releases.length) releases.shift()!();
    await Promise.all(running);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });
});

describe('sign-in limiter in process: slows down, never locks out', () => {
  it('waits 1 s, 2 s, 4 s … after the free failures, up to the ceiling, counted from the last failure', async () => {
    let now = 1_000_000;
    const limiter = new MemorySignInLimiter(10_000, () => now);
    const s = [{ key: 'pair:a@b.c|1.2.3.4', free: 3 }];
    for (let i = 0; i < 3; i++) {
      expect(await limiter.retryAfter(s)).toBe(0);
      await limiter.fail(s);
    }
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      waits.push(await limiter.retryAfter(s));
      now += waits.at(-1)! * 1000;
      expect(await limiter.retryAfter(s)).toBe(0);
      await limiter.fail(s);
    }
    expect(waits).toEqual([1, 2, 4, 8, 10, 10]);
  });

  it('forgets a subject 15 minutes after its last failure; a success clears it', async () => {
    let now = 5;
    const limiter = new MemorySignInLimiter(60_000, () => now);
    const s = [{ key: 'account:a@b.c', free: 1 }];
    await limiter.fail(s);
    expect(await limiter.retryAfter(s)).toBe(1);
    now += 15 * 60_000 + 1;
    expect(await limiter.retryAfter(s)).toBe(0);
    await limiter.fail(s);
    await limiter.fail(s);
    expect(await limiter.retryAfter(s)).toBe(2);
    await limiter.succeed(s);
    expect(await limiter.retryAfter(s)).toBe(0);
  });
});
