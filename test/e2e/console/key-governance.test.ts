import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleServer, DESKTOP, PHONE, screenshot, signInAsAdmin, startConsole } from './browser.js';

/** The models a key may list, as any client would ask. */
const listModels = async (base: string, key: string) => {
  const res = await fetch(`${base}/paas/v4/models`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { data?: { id: string }[]; error?: { code: string; message: string } };
  return { status: res.status, ids: body.data?.map((m) => m.id).sort(), error: body.error };
};

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe("console in Chromium: a key's models, expiry, addresses and description, changed and rolled", {
  timeout: 180_000,
}, () => {
  let s: ConsoleServer;
  let page: Page;
  let first = '';
  beforeAll(async () => {
    s = await startConsole();
    page = await s.browser.newPage({ viewport: DESKTOP });
    await signInAsAdmin(page, s.base);
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await s?.close();
  });
  const row = () => page.getByRole('row', { name: /team-key/ });

  it('creates a key limited to a model, an address range and a time, with a note', async () => {
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('team-key');
    await page.getByLabel('Models').fill('gen-4.6');
    await page.getByLabel('Expires (UTC)').fill('2030-01-01T00:00');
    await page.getByLabel('Allowed addresses').fill('127.0.0.1/32, ::1/128');
    await page.getByLabel('Description').fill('CI runner of the docs team');
    await screenshot(page, 'keys-create-policy-desktop');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const field = page.getByLabel('New key');
    await field.waitFor();
    first = await field.inputValue();

    expect(await listModels(s.base, first)).toMatchObject({ status: 200, ids: ['gen-4.6'] });
    await expect.poll(() => row().textContent()).toContain('Models: gen-4.6');
    const text = await row().textContent();
    expect(text).toContain('Expires 2030-01-01 00:00 UTC');
    expect(text).toContain('From 127.0.0.1/32, ::1/128');
    expect(text).toContain('CI runner of the docs team');
  });

  it('changes the models and addresses; the form shows what the key has, and the server refuses bad input', async () => {
    await page.getByRole('button', { name: 'Change team-key' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('edit-name');
    expect(await page.locator('#edit-models').inputValue()).toBe('gen-4.6');
    expect(await page.locator('#edit-expires').inputValue()).toBe('2030-01-01T00:00');
    expect(await page.locator('#edit-ips').inputValue()).toBe('127.0.0.1/32, ::1/128');

    await page.locator('#edit-models').fill('gen-4.6, not a model!');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('models');
    await screenshot(page, 'keys-change-refused-desktop');

    await page.locator('#edit-models').fill('gen-4.6, gen-4.5*');
    await page.locator('#edit-ips').fill('10.0.0.0/8');
    await screenshot(page, 'keys-change-desktop');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => row().textContent()).toContain('From 10.0.0.0/8');
    expect(await page.locator('#edit-name').count()).toBe(0);
    // This client is outside the key's addresses now.
    const refused = await listModels(s.base, first);
    expect(refused.status).toBe(403);
    expect(refused.error?.code).toBe('1220');

    await page.getByRole('button', { name: 'Change team-key' }).click();
    await page.locator('#edit-ips').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => row().textContent()).not.toContain('From ');
    expect(await listModels(s.base, first)).toMatchObject({ status: 200, ids: ['gen-4.5', 'gen-4.6'] });
  });

  it('rolls the key: the new secret is shown once, the old one works for the grace period chosen', async () => {
    await page.getByRole('button', { name: 'Roll team-key' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('roll-grace');
    await page.getByLabel('The current secret keeps working for').selectOption({ label: '1 day' });
    await screenshot(page, 'keys-roll-desktop');
    await page.getByRole('button', { name: 'Roll key' }).click();
    await page.getByRole('heading', { name: 'Key team-key rolled' }).waitFor();
    const rolled = await page.getByLabel('New key').inputValue();
    expect(rolled).not.toBe(first);
    expect(rolled.split('.')[0]).toBe(first.split('.')[0]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new-key');
    const note = await page.locator('.card.success').textContent();
    expect(note).toMatch(/The old secret works until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    await expect.poll(() => row().textContent()).toContain('old secret until');
    await screenshot(page, 'keys-rolled-desktop');

    expect((await listModels(s.base, rolled)).status).toBe(200);
    expect((await listModels(s.base, first)).status).toBe(200);

    // Shown once: after a reload the page has only the key's id, never a secret.
    await page.reload();
    await page.getByRole('button', { name: 'Create key' }).waitFor();
    const html = await page.content();
    expect(html).not.toContain(rolled.split('.')[1]);
    expect(await page.getByLabel('New key').count()).toBe(0);
  });

  it('a roll with no grace refuses the old secret at once', async () => {
    await page.getByRole('button', { name: 'Roll team-key' }).click();
    await page.getByLabel('The current secret keeps working for').selectOption({ value: '0' });
    await page.getByRole('button', { name: 'Roll key' }).click();
    await page.getByRole('heading', { name: 'Key team-key rolled' }).waitFor();
    const latest = await page.getByLabel('New key').inputValue();
    expect(await page.locator('.card.success').textContent()).toContain('The old secret no longer works.');
    expect((await listModels(s.base, latest)).status).toBe(200);
    expect((await listModels(s.base, first)).status).toBe(401);
    first = latest;
  });

  it('an expiry in the past shows the key as expired, and the API refuses it', async () => {
    await page.getByRole('button', { name: 'Change team-key' }).click();
    await page.locator('#edit-expires').fill('2020-01-01T00:00');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => row().textContent()).toContain('Expired 2020-01-01 00:00 UTC');
    expect(await row().locator('.status').textContent()).toBe('expired');
    await screenshot(page, 'keys-expired-desktop');
    const refused = await listModels(s.base, first);
    expect(refused.status).toBe(401);

    await page.getByRole('button', { name: 'Change team-key' }).click();
    await page.locator('#edit-expires').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => row().locator('.status').textContent()).toBe('active');
    expect(await row().textContent()).not.toContain('Expire');
    expect((await listModels(s.base, first)).status).toBe(200);
  });

  it('works at phone width: the table, the forms and the new secret fit without sideways scrolling', async () => {
    const phone = await s.browser.newPage({ viewport: PHONE, isMobile: true, hasTouch: true });
    await signInAsAdmin(phone, s.base);
    await phone.getByRole('row', { name: /team-key/ }).waitFor();
    expect(await noSidewaysScroll(phone)).toBeLessThanOrEqual(0);
    await screenshot(phone, 'keys-policy-phone');

    await phone.getByRole('button', { name: 'Create key' }).click();
    await phone.getByLabel('Name', { exact: true }).fill('phone-key');
    await phone.getByLabel('Models').fill('gen-4.5*');
    await phone.getByLabel('Expires (UTC)').fill('2031-06-30T12:00');
    expect(await noSidewaysScroll(phone)).toBeLessThanOrEqual(0);
    await screenshot(phone, 'keys-create-policy-phone');
    await phone.getByRole('button', { name: 'Create', exact: true }).click();
    await phone.getByLabel('New key').waitFor();

    await phone.getByRole('button', { name: 'Change phone-key' }).click();
    expect(await phone.locator('#edit-models').inputValue()).toBe('gen-4.5*');
    expect(await noSidewaysScroll(phone)).toBeLessThanOrEqual(0);
    await screenshot(phone, 'keys-change-phone');
    await phone.getByRole('button', { name: 'Cancel' }).click();

    await phone.getByRole('button', { name: 'Roll phone-key' }).click();
    await phone.getByRole('button', { name: 'Roll key' }).click();
    await phone.getByRole('heading', { name: 'Key phone-key rolled' }).waitFor();
    expect(await noSidewaysScroll(phone)).toBeLessThanOrEqual(0);
    await screenshot(phone, 'keys-rolled-phone');
    await phone.close();
  });
});
