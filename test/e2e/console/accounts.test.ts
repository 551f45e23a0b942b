import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleServer,
  createKeyInUi,
  DESKTOP,
  screenshot,
  signInAs,
  signInAsAdmin,
  startConsole,
  webSearch,
} from './browser.js';

/** Calls the console API from inside the page, with its cookie and (unless told) its CSRF token. */
const fromPage = (page: Page, method: string, url: string, body?: unknown, csrf?: string | null) =>
  page.evaluate(
    async ({ method, url, body, csrf }) => {
      const session = await (await fetch('/console/api/session')).json();
      const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
      const token = csrf === undefined ? session.csrf_token : csrf;
      if (token !== null) headers['x-csrf-token'] = token;
      const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: res.status, body: await res.json() };
    },
    { method, url, body, csrf },
  );

describe('console in Chromium: account holders, CSRF and session expiry', { timeout: 120_000 }, () => {
  let s: ConsoleServer;
  const holders: Record<string, string> = {};
  beforeAll(async () => {
    s = await startConsole();
  }, 120_000);
  afterAll(() => s?.close());

  it('the admin creates account holders, each shown an initial password once', async () => {
    const page = await s.browser.newPage({ viewport: DESKTOP });
    await signInAsAdmin(page, s.base);
    await page.getByRole('link', { name: 'Accounts' }).click();
    for (const [name, email] of [
      ['Ada Lovelace', 'ada@example.test'],
      ['Bob Builder', 'bob@example.test'],
      ['Cy Disabled', 'cy@example.test'],
    ]) {
      await page.getByLabel('Full name').fill(name!);
      await page.getByLabel('Email address').fill(email!);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: `Account ${email} created` }).waitFor();
      holders[email!] = await page.getByLabel('Initial password').inputValue();
      expect(holders[email!]).toMatch(/^[\w-]{16,}$/);
    }
    await screenshot(page, 'accounts-desktop');
    await page.close();
  });

  it('an account holder sees and revokes only their own keys, in the page and through the API', async () => {
    const ada = await s.browser.newPage({ viewport: DESKTOP });
    await signInAs(ada, s.base, 'ada@example.test', holders['ada@example.test']!);
    expect(await ada.getByRole('link', { name: 'Accounts' }).count()).toBe(0);
    expect(await ada.getByText('Your keys.').count()).toBe(1);
    // The fixture's own key belongs to the admin: Ada does not see it.
    expect(await ada.getByRole('row', { name: /^test/ }).count()).toBe(0);
    const adaKey = await createKeyInUi(ada, 'ada-key');
    expect((await webSearch(s.base, adaKey)).status).toBe(200);

    const bob = await s.browser.newPage({ viewport: DESKTOP });
    await signInAs(bob, s.base, 'bob@example.test', holders['bob@example.test']!);
    await createKeyInUi(bob, 'bob-key');
    expect(await bob.getByText('ada-key').count()).toBe(0);
    const adaId = adaKey.split('.')[0]!;
    const listed = await fromPage(bob, 'GET', '/console/api/keys');
    expect(listed.body.data.map((k: { name: string }) => k.name)).toEqual(['bob-key']);
    const revoke = await fromPage(bob, 'POST', `/console/api/keys/${adaId}/revoke`);
    expect(revoke.status).toBe(404);
    expect(revoke.body).toMatchObject({ error: { code: '1233' } });
    const accounts = await fromPage(bob, 'GET', '/console/api/accounts');
    expect(accounts.status).toBe(403);
    expect((await webSearch(s.base, adaKey)).status).toBe(200);
    const usage = await fromPage(bob, 'GET', '/console/api/usage');
    expect(usage.body.data).toEqual([]);

    // The admin sees every holder's keys.
    const admin = await s.browser.newPage({ viewport: DESKTOP });
    await signInAsAdmin(admin, s.base);
    await admin.getByText('ada-key').waitFor();
    await admin.getByText('bob-key').waitFor();
    await expect.poll(() => admin.getByRole('row', { name: /ada-key/ }).textContent()).toContain('Ada Lovelace');
    await Promise.all([ada.close(), bob.close(), admin.close()]);
  });

  it('an account holder replaces the initial password', async () => {
    const page = await s.browser.newPage({ viewport: DESKTOP });
    await signInAs(page, s.base, 'ada@example.test', holders['ada@example.test']!);
    await page.getByRole('link', { name: 'Password' }).click();
    await page.getByLabel('Current password').fill(holders['ada@example.test']!);
    await page.getByLabel('New password', { exact: true }).fill('a much better passphrase');
    await page.getByLabel('Repeat the new password').fill('a much better passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    const signIn = (password: string) =>
      fetch(`${s.base}/console/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.test', password }),
      });
    expect((await signIn(holders['ada@example.test']!)).status).toBe(401);
    expect((await signIn('a much better passphrase')).status).toBe(200);
    await page.close();
  });

  it('a wrong password is refused, and repeated failures are rate-limited', async () => {
    const page = await s.browser.newPage({ viewport: DESKTOP });
    await page.goto(`${s.base}/console`);
    await page.getByLabel('Email').fill('cy@example.test');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('wrong email or password');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${s.base}/console/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'cy@example.test', password: `guess-${i}` }),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 9)).toEqual(Array(9).fill(401));
    expect(statuses[9]).toBe(429);
    await page.close();
  });

  it('disabling an account signs its holder out and revokes its keys', async () => {
    const { account, password } = await s.t.services.accounts.createAccount({ name: 'Dan', email: 'dan@example.test' });
    const dan = await s.browser.newPage({ viewport: DESKTOP });
    await signInAs(dan, s.base, 'dan@example.test', password);
    const key = await createKeyInUi(dan, 'dan-key');
    expect((await webSearch(s.base, key)).status).toBe(200);

    const page = await s.browser.newPage({ viewport: DESKTOP });
    await signInAsAdmin(page, s.base);
    await page.getByRole('link', { name: 'Accounts' }).click();
    await page.getByRole('button', { name: 'Disable Dan' }).click();
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await expect.poll(() => page.getByRole('row', { name: /Dan/ }).textContent()).toContain('disabled');
    expect((await webSearch(s.base, key)).status).toBe(401);

    await dan.getByRole('link', { name: 'Usage' }).click();
    await dan.getByLabel('Email').waitFor();
    const again = await fetch(`${s.base}/console/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password }),
    });
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ error: { code: '1004' } });
    await Promise.all([dan.close(), page.close()]);
  });

  it('refuses a state-changing call without the CSRF token', async () => {
    const page = await s.browser.newPage({ viewport: DESKTOP });
    await signInAsAdmin(page, s.base);
    const missing = await fromPage(page, 'POST', '/console/api/keys', { name: 'forged' }, null);
    expect(missing.status).toBe(403);
    expect(missing.body.error.message).toContain('CSRF');
    const wrong = await fromPage(page, 'POST', '/console/api/keys', { name: 'forged' }, 'x'.repeat(32));
    expect(wrong.status).toBe(403);
    const right = await fromPage(page, 'POST', '/console/api/keys', { name: 'not-forged' });
    expect(right.status).toBe(200);
    await page.close();
  });
});

describe('console in Chromium: an expired session sends the page back to sign-in', { timeout: 120_000 }, () => {
  let s: ConsoleServer;
  beforeAll(async () => {
    // 2 seconds.
    s = await startConsole({ console: { session_hours: 2 / 3600 } });
  }, 120_000);
  afterAll(() => s?.close());

  it('asks to sign in again once the session has expired', async () => {
    const page = await s.browser.newPage({ viewport: DESKTOP });
    await signInAsAdmin(page, s.base);
    await new Promise((r) => setTimeout(r, 2_500));
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByText('Your session has expired').waitFor();
    await page.getByLabel('Admin key').waitFor();
    const status = await page.evaluate(async () => (await fetch('/console/api/keys')).status);
    expect(status).toBe(401);
    await page.close();
  });
});
