import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleServer, DESKTOP, PHONE, screenshot, signInAsAdmin, startConsole } from './browser.js';

const openAccounts = async (page: Page, base: string) => {
  await signInAsAdmin(page, base);
  await page.getByRole('link', { name: 'Accounts' }).click();
  await page.getByRole('row', { name: /Docs team/ }).waitFor();
};

describe('console in Chromium: the admin sets what the keys of an account share', { timeout: 180_000 }, () => {
  let s: ConsoleServer;
  let accountId = '';
  beforeAll(async () => {
    s = await startConsole({ accounts: { concurrent: 8, requests_per_minute: 0, max_keys: 20 } });
    ({
      account: { id: accountId },
    } = await s.t.services.accounts.createAccount({ name: 'Docs team', email: 'docs@example.test' }));
  }, 120_000);
  afterAll(() => s?.close());

  it('shows the defaults, refuses a bad model, saves limits, a key cap and models, and the audit log has it', async () => {
    const page = await s.browser.newPage({ viewport: DESKTOP });
    await openAccounts(page, s.base);
    const row = page.getByRole('row', { name: /Docs team/ });
    expect(await row.textContent()).toContain('8 concurrent · no per-minute limit · 0 of 20 keys · all models');

    await page.getByRole('button', { name: 'Set what the keys of Docs team share' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('policy-concurrent');
    expect(await page.getByLabel('Concurrent requests').getAttribute('placeholder')).toBe('default: 8');
    await page.getByLabel('Concurrent requests').fill('2');
    await page.getByLabel('Active keys at most').fill('3');
    await page.getByLabel('Models', { exact: true }).fill('gen-4.6, bad model!');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('models');
    await screenshot(page, 'accounts-policy-refused-desktop');

    await page.getByLabel('Models', { exact: true }).fill('gen-4.6');
    await page.getByLabel('Usage windows').fill('5000 a week');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Usage windows');
    await page.getByLabel('Usage windows').fill('5000/5h, 40000/168h');
    await screenshot(page, 'accounts-policy-desktop');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => row.textContent())
      .toContain('2 concurrent · no per-minute limit · 0 of 3 keys · models gen-4.6 · windows 5000/5h, 40000/168h');
    expect(await page.locator('#policy-concurrent').count()).toBe(0);
    await screenshot(page, 'accounts-policy-saved-desktop');

    const held = await s.t.services.accountPolicies.forAccount(accountId);
    expect(held).toMatchObject({
      limits: {
        concurrent: 2,
        windows: [
          { requests: 5000, hours: 5 },
          { requests: 40000, hours: 168 },
        ],
      },
      maxKeys: 3,
      models: ['gen-4.6'],
    });
    const [record] = await s.t.services.audit.list({ action: 'account.policy', limit: 10 });
    expect(record).toMatchObject({
      actor: 'key:admin',
      address: '127.0.0.1',
      target: `account:${accountId}`,
      before: { concurrent: null, max_keys: null, models: [] },
      after: { concurrent: 2, max_keys: 3, models: ['gen-4.6'] },
    });

    // An emptied field goes back to the default.
    await page.getByRole('button', { name: 'Set what the keys of Docs team share' }).click();
    expect(await page.getByLabel('Concurrent requests').inputValue()).toBe('2');
    await page.getByLabel('Concurrent requests').fill('');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => row.textContent()).toContain('8 concurrent');
    await page.close();
  });

  it('works at phone width', async () => {
    const page = await s.browser.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    await openAccounts(page, s.base);
    await page.getByRole('button', { name: 'Set what the keys of Docs team share' }).click();
    await page.getByLabel('Concurrent requests').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'accounts-policy-phone');
    await page.close();
  });
});
