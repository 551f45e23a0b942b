import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  type ConsoleServer,
  createKeyInUi,
  DESKTOP,
  PHONE,
  screenshot,
  signInAsAdmin,
  startConsole,
  webSearch,
} from './browser.js';

describe('console in Chromium: the admin signs in, creates a key, sees its usage, revokes it', {
  timeout: 120_000,
}, () => {
  let s: ConsoleServer;
  beforeAll(async () => {
    s = await startConsole();
  }, 120_000);
  afterAll(() => s?.close());

  it('a browser that has not signed in sees the sign-in form, not the keys', async () => {
    await s.t.services.keys.create({ name: 'secret-cli-key' });
    const page = await s.browser.newPage({ viewport: DESKTOP });
    await page.goto(`${s.base}/console`);
    await page.getByLabel('Admin key').waitFor();
    expect(await page.getByText('secret-cli-key').count()).toBe(0);
    await screenshot(page, 'sign-in-desktop');
    await page.close();
  });

  it('signs in with the keyboard alone, and refuses a wrong admin key', async () => {
    const page = await s.browser.newPage({ viewport: DESKTOP });
    await page.goto(`${s.base}/console`);
    await page.getByLabel('Admin key').fill('not-the-admin-key');
    await page.getByLabel('Admin key').press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not an admin key');
    await page.getByLabel('Admin key').fill(ADMIN_KEY);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Create key' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    // From the page's heading, Tab reaches "Create key"; Enter opens the form with focus in Name.
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Create key');
    await page.keyboard.press('Enter');
    // The form opens on the next render: wait for focus to land rather than read it at once.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('key-name');
    await page.keyboard.press('Escape');
    await page.close();
  });

  it('creates a key, uses it through the API, shows its usage, revokes it, and the API refuses it', async () => {
    const page = await s.browser.newPage({ viewport: DESKTOP });
    await signInAsAdmin(page, s.base);
    const key = await createKeyInUi(page, 'browser-key');
    expect(key).toMatch(/^[^.\s]+\.[^.\s]+$/);
    expect(await page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
    // Focus lands on the new key, selected, ready to copy.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new-key');
    await screenshot(page, 'keys-new-key-desktop');

    expect((await webSearch(s.base, key)).status).toBe(200);
    expect((await webSearch(s.base, key)).status).toBe(200);

    // The row shows the key's endpoints, status and when it was last used.
    await page.reload();
    const row = page.getByRole('row', { name: /browser-key/ });
    await expect.poll(() => row.textContent()).toContain('active');
    expect(await row.textContent()).toContain('general');
    expect(await row.getByRole('cell').nth(5).textContent()).not.toBe('—');
    expect(await row.getByRole('cell').nth(0).textContent()).toBe('Admin');

    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { level: 1, name: /usage/i }).waitFor();
    // The keys table also has a row named browser-key: read the usage table's row once it has rendered.
    const usageRow = page
      .locator('table')
      .filter({ hasText: /tokens/i })
      .getByRole('row', { name: /browser-key/ });
    await expect
      .poll(async () => (await usageRow.count()) > 0 && (await usageRow.first().getByRole('cell').allTextContents()))
      .toEqual(expect.arrayContaining(['browser-key', '2']));
    expect(await page.locator('.chart canvas').count()).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'usage-desktop');

    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('button', { name: 'Revoke browser-key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // Focus moves into the confirmation; Escape would cancel it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await screenshot(page, 'keys-confirm-desktop');
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect.poll(() => row.textContent()).toContain('revoked');
    expect(await page.getByRole('button', { name: 'Revoke browser-key' }).count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('keys-title');
    const refused = await webSearch(s.base, key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: '1004' } });
    await page.close();
  });

  it('is usable at phone width: no sideways scrolling, every column labelled', async () => {
    const page = await s.browser.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    await signInAsAdmin(page, s.base);
    await createKeyInUi(page, 'phone-key');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await page.getByRole('button', { name: 'Revoke phone-key' }).isVisible()).toBe(true);
    await screenshot(page, 'keys-phone');
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.locator('.chart canvas').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'usage-phone');
    await page.close();
  });

  it('follows the dark colour scheme', async () => {
    const context = await s.browser.newContext({ viewport: DESKTOP, colorScheme: 'dark' });
    const page = await context.newPage();
    await signInAsAdmin(page, s.base);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(17, 19, 24)');
    await screenshot(page, 'keys-dark-desktop');
    await context.close();
  });
});
