import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleServer,
  createKeyInUi,
  DESKTOP,
  PHONE,
  screenshot,
  signInAs,
  signInAsAdmin,
  startConsole,
} from './browser.js';

/** Calls the console API from inside the page, with its cookie and CSRF token. */
const fromPage = (page: Page, method: string, url: string, body?: unknown) =>
  page.evaluate(
    async ({ method, url, body }) => {
      const session = await (await fetch('/console/api/session')).json();
      const headers: Record<string, string> = { 'x-csrf-token': session.csrf_token };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: res.status, body: await res.json() };
    },
    { method, url, body },
  );

/** A `datetime-local` value for a time, in UTC as the page reads it. */
const local = (ms: number) => new Date(ms).toISOString().slice(0, 16);

const openAudit = async (page: Page) => {
  await page.getByRole('link', { name: 'Audit' }).click();
  await page.getByRole('heading', { name: 'Audit log' }).waitFor();
};

const rows = (page: Page) => page.locator('tbody tr');

describe('console in Chromium: the admin reads the audit log', { timeout: 180_000 }, () => {
  let s: ConsoleServer;
  let started = 0;
  let accountId = '';
  let password = '';
  beforeAll(async () => {
    s = await startConsole();
    started = Date.now();
    ({
      account: { id: accountId },
      password,
    } = await s.t.services.accounts.createAccount({ name: 'Ada Lovelace', email: 'ada@example.test' }));
  }, 120_000);
  afterAll(() => s?.close());

  it('lists acts newest first with actor, address and what changed, and filters by action, actor and time', async () => {
    const ada = await s.browser.newPage({ viewport: DESKTOP });
    await signInAs(ada, s.base, 'ada@example.test', password);
    await createKeyInUi(ada, 'ada-notebook');
    expect(await ada.getByRole('link', { name: 'Audit' }).count()).toBe(0);
    await ada.goto(`${s.base}/console#/audit`);
    await ada.getByRole('heading', { name: 'API keys' }).waitFor();
    expect((await fromPage(ada, 'GET', '/console/api/audit')).status).toBe(403);
    await ada.close();

    const page = await s.browser.newPage({ viewport: DESKTOP });
    await signInAsAdmin(page, s.base);
    const secret = await createKeyInUi(page, 'ci-runner');
    const id = secret.split('.')[0]!;
    const changed = await fromPage(page, 'PATCH', `/console/api/keys/${id}`, {
      models: ['gen-4.6'],
      description: 'CI runners',
    });
    expect(changed.status).toBe(200);
    const queries: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/console/api/audit')) queries.push(new URL(r.url()).search);
    });
    await openAudit(page);

    // Newest first: the change, then the creation, then the admin's sign-in.
    await expect.poll(() => rows(page).count()).toBeGreaterThanOrEqual(4);
    const first = rows(page).nth(0);
    expect(await first.textContent()).toContain('key.update');
    expect(await first.textContent()).toContain('key:admin');
    expect(await first.textContent()).toContain('127.0.0.1');
    expect(await first.textContent()).toContain(`key:${id}`);
    expect(await first.locator('.changes').textContent()).toMatch(/models: none\s*→\s*changed to\s*gen-4\.6/);
    expect(await rows(page).nth(1).textContent()).toContain('key.create');
    const text = (await page.locator('tbody').textContent()) ?? '';
    expect(text).not.toContain(secret);
    expect(text).toContain('session.sign_in');
    await screenshot(page, 'audit-desktop');

    await page.getByLabel('Action').fill('key.create');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => rows(page).count()).toBe(2);
    expect(await rows(page).nth(0).textContent()).toContain('ci-runner');
    expect(await rows(page).nth(1).textContent()).toContain('ada-notebook');

    await page.getByLabel('Actor').fill(`account:${accountId}`);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).nth(0).textContent()).toContain('Ada Lovelace');
    expect(await rows(page).nth(0).textContent()).toContain('ada-notebook');

    // A range ending before anything happened holds nothing; one starting before it, everything so far.
    await page.getByLabel('Actor').fill('');
    await page.getByLabel('Action').fill('key.*');
    await page.getByLabel('To (UTC)').fill(local(started - 120_000));
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No records match these filters.').waitFor();
    await page.getByLabel('To (UTC)').fill('');
    await page.getByLabel('From (UTC)').fill(local(started - 60_000));
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => rows(page).count()).toBe(3);
    const query = new URLSearchParams(queries.at(-1));
    expect(query.get('since')).toBe(`${local(started - 60_000)}:00Z`);
    expect(query.get('action')).toBe('key.*');

    await page.getByLabel('To (UTC)').fill(local(started - 120_000));
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('“From” must be earlier than “To”');
    await page.getByLabel('To (UTC)').fill('');
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => rows(page).count()).toBeGreaterThanOrEqual(5);
    await page.close();
  });

  it('pages through older records', async () => {
    for (let i = 0; i < 55; i++)
      await s.t.services.audit.record({ id: 'system' }, { action: 'test.filler', target: `n:${i}` });
    const page = await s.browser.newPage({ viewport: DESKTOP });
    await signInAsAdmin(page, s.base);
    await openAudit(page);
    await page.getByLabel('Action').fill('test.filler');
    await page.getByRole('button', { name: 'Filter' }).click();
    // The unfiltered list already shows 50 rows: wait for the filtered one, not for a count.
    await expect.poll(() => rows(page).nth(0).textContent()).toContain('n:54');
    expect(await rows(page).count()).toBe(50);
    await page.getByRole('button', { name: 'Older records' }).click();
    await expect.poll(() => rows(page).count()).toBe(55);
    expect(await rows(page).nth(54).textContent()).toContain('n:0');
    expect(await page.getByRole('button', { name: 'Older records' }).count()).toBe(0);
    await page.close();
  });

  it('works at phone width', async () => {
    const page = await s.browser.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    await signInAsAdmin(page, s.base);
    await openAudit(page);
    await page.getByLabel('Action').fill('key.*');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => rows(page).count()).toBe(3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'audit-phone');
    await page.close();
  });
});
