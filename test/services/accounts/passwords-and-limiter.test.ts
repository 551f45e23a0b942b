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
  it('forgets a subject 15 minutes after its last attempt; a success clears it', async () => {
    let now = 5;
    const limiter = new MemorySignInLimiter(60_000, () => now);
    const s = [{ key: 'account:a@b.c', free: 1 }];
    const fail = async () => (await limiter.begin(s)).attempt!.failed();
    await fail();
    expect((await limiter.begin(s)).wait).toBe(1);
    now += 15 * 60_000 + 1;
    await fail();
    now += 1000;
    await fail();
    expect((await limiter.begin(s)).wait).toBe(2);
    now += 2000;
    await (await limiter.begin(s)).attempt!.succeeded(s);
    await fail();
    expect((await limiter.begin(s)).wait).toBe(1);
  });
});
