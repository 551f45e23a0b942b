import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { consoleDir } from '../../../src/routes/console/static.js';
import { writeTestModels } from '../../../src/test-models/write-test-models.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { deployment } from '../support.js';

export const ADMIN_KEY = 'console-e2e-admin-key-0123456789';
export const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';
export const SHOTS = path.resolve('test-results/console');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface ConsoleServer {
  t: TestApp;
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

/** The page is the Vite build; `npm install` makes it, and a fresh checkout in a test run gets it here. */
async function ensureBuilt(): Promise<void> {
  if (consoleDir()) return;
  const { build } = await import('vite');
  await build({ configFile: path.resolve('web/console/vite.config.ts') });
}

/** An app on a real socket with the admin key set, the test models as gen-4.6, and Debian's Chromium. */
export async function startConsole(config: Record<string, unknown> = {}): Promise<ConsoleServer> {
  await ensureBuilt();
  const dir = await mkdtemp(path.join(tmpdir(), 'console-models-'));
  const paths = await writeTestModels(dir);
  const t = await createTestApp({
    security: { admin_key: ADMIN_KEY },
    models: { 'gen-4.6': deployment(paths.thinking), 'gen-4.5': deployment(paths.programmed) },
    ...config,
  });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    t,
    base,
    browser,
    async close() {
      await browser.close();
      await t.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function signInAsAdmin(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/console`);
  await page.getByLabel('Admin key').fill(ADMIN_KEY);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Create key' }).waitFor();
}

export async function signInAs(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/console`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Create key' }).waitFor();
}

export async function createKeyInUi(page: Page, name: string): Promise<string> {
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const field = page.getByLabel('New key');
  await field.waitFor();
  return field.inputValue();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** The platform API, called as any client would. */
export const webSearch = (base: string, key: string) =>
  fetch(`${base}/paas/v4/web_search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ search_engine: 'search-prime', search_query: 'console' }),
  });
