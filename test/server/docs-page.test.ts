import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_VERSION } from '../../src/server/docs-page.js';
import { withoutEngines } from '../api/support.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** `/docs` in the platform's name: the HTML it serves, and the page as a browser renders it. */

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`SKIPPED the /docs screenshot: ${CHROMIUM} is absent (apt-get install chromium)`);

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp(withoutEngines());
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

describe('the HTML of /docs', () => {
  it('carries the platform name and spec version, and no trace of the web framework', async () => {
    const res = await fetch(`${base}/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<title>gen-platform API reference (spec ${SPEC_VERSION})</title>`);
    expect(html).toContain('theme/favicon.svg');
    expect(html.toLowerCase()).not.toContain('fastify');
  });

  it('serves the platform favicon and a logo that names the platform', async () => {
    const favicon = await fetch(`${base}/docs/static/theme/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(await favicon.text()).toContain('<svg');
    const init = await (await fetch(`${base}/docs/static/swagger-initializer.js`)).text();
    const logo = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(init)?.[1];
    const svg = Buffer.from(logo ?? '', 'base64').toString();
    expect(svg).toContain('gen-platform');
    expect(svg).toContain(`spec ${SPEC_VERSION}`);
  });

  it('documents the API under the platform title', async () => {
    const doc = (await (await fetch(`${base}/docs/json`)).json()) as { info: { title: string; version: string } };
    expect(doc.info).toMatchObject({ title: 'gen-platform: Model Platform HTTP API', version: SPEC_VERSION });
  });
});

describe.skipIf(!hasChromium)('the page in headless Chromium', () => {
  let browser: Browser;
  let shots: string;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    shots = await mkdtemp(join(tmpdir(), 'docs-shot-'));
  });
  afterAll(async () => {
    await browser?.close();
    await rm(shots, { recursive: true, force: true });
  });

  it('renders the platform logo and title, the operations, and a screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/docs`);
    const logo = page.locator('.topbar a img');
    await logo.waitFor({ timeout: 20_000 });
    expect(await logo.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    await page.locator('.info .title').waitFor();
    expect(await page.locator('.info .title').innerText()).toContain('gen-platform');
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock-summary-path', { hasText: '/paas/v4/models' }).count()).toBe(1);
    expect(await page.title()).toBe(`gen-platform API reference (spec ${SPEC_VERSION})`);
    expect((await page.content()).toLowerCase()).not.toContain('fastify');
    const file = join(shots, 'docs.png');
    const png = await page.screenshot({ path: process.env['DOCS_SCREENSHOT'] ?? file });
    // A PNG of the rendered page, not an empty one.
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(20_000);
    await page.close();
  }, 60_000);
});
