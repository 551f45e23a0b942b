import { describe, expect, it } from 'vitest';
import { hashPassword, newPassword, verifyPassword } from '../../../src/services/accounts/passwords.js';
import { SignInLimiter } from '../../../src/services/accounts/sign-in-limiter.js';

describe('passwords (scrypt)', () => {
  it('verifies the right password only, with a fresh salt per hash', async () => {
    const password = newPassword();
    expect(password).toMatch(/^[\w-]{22}$/);
    const a = await hashPassword(password);
    const b = await hashPassword(password);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(password, a)).toBe(true);
    expect(await verifyPassword(`${password}x`, a)).toBe(false);
    expect(await verifyPassword(password, 'bcrypt$whatever')).toBe(false);
  });

  it('treats equivalent Unicode spellings of a password alike', async () => {
    const hash = await hashPassword('caf\u00e9');
    expect(await verifyPassword('cafe\u0301', hash)).toBe(true);
  });
});

describe('sign-in limiter', () => {
  it('blocks a subject after its allowed failures for the rest of the 15-minute window', () => {
    let now = 1_000_000;
    const limiter = new SignInLimiter(() => now);
    const account = { key: 'email:a@b.c', allowed: 3 };
    const address = { key: 'ip:1.2.3.4', allowed: 5 };
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfter([account, address])).toBe(0);
      limiter.fail([account, address]);
    }
    expect(limiter.retryAfter([account, address])).toBe(900);
    now += 600_000;
    expect(limiter.retryAfter([account])).toBe(300);
    now += 300_001;
    expect(limiter.retryAfter([account])).toBe(0);
  });

  it('a success clears the account, not the address', () => {
    const limiter = new SignInLimiter(() => 5);
    const account = { key: 'email:a@b.c', allowed: 1 };
    const address = { key: 'ip:1.2.3.4', allowed: 1 };
    limiter.fail([account, address]);
    limiter.succeed([account, address]);
    expect(limiter.retryAfter([account])).toBe(0);
    expect(limiter.retryAfter([address])).toBeGreaterThan(0);
  });
});
