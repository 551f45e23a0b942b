import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestModels } from '../../../src/test-models/write-test-models.js';
import { type ModelServer, startModelServer } from '../../services/models/model-server.js';
import { deployment } from '../support.js';
import { type ConsoleServer, DESKTOP, PHONE, screenshot, signInAsAdmin, startConsole } from './browser.js';

/** A small site for the crawler: a start page linking two articles, no robots.txt. */
async function startSite(): Promise<{ url: string; close(): Promise<void> }> {
  const words = (topic: string) =>
    Array.from({ length: 12 }, (_, i) => `The ${topic} survey found reading ${i} about ${topic} and its tides.`).join(
      ' ',
    );
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${body}</p></article></body></html>`;
  const pages: Record<string, string> = {
    '/': page(
      'Harbour notes',
      `${words('harbour')} <a href="/lighthouse">Lighthouse</a> <a href="/breakwater">Breakwater</a>`,
    ),
    '/lighthouse': page('Lighthouse keeping', words('lighthouse')),
    '/breakwater': page('Breakwater repairs', words('breakwater')),
  };
  const server: Server = createServer((req, res) => {
    const html = pages[req.url ?? ''];
    if (!html) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function open(s: ConsoleServer, link: string, heading: string, viewport = DESKTOP): Promise<Page> {
  const page = await s.browser.newPage({ viewport });
  await signInAsAdmin(page, s.base);
  if (viewport === PHONE) await page.getByRole('link', { name: link }).scrollIntoViewIfNeeded();
  await page.getByRole('link', { name: link }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

describe('console in Chromium: the Models and Search pages', { timeout: 180_000 }, () => {
  let s: ConsoleServer;
  let host: ModelServer;
  let site: { url: string; close(): Promise<void> };
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'console-platform-'));
    const paths = await writeTestModels(path.join(dir, 'source'));
    // A model host that refuses the first request, then sends half the file and waits.
    host = await startModelServer(paths.programmed, 'remote-model.gguf');
    site = await startSite();
    s = await startConsole({
      embedded: { default_model: '', models_dir: path.join(dir, 'models') },
      models: {
        'gen-4.6': deployment(paths.thinking),
        'gen-4.5': deployment(paths.programmed),
        'gen-5': { deployments: [{ engine: 'llama-cpp', model: host.url, threads: 1, context_size: 512 }] },
      },
      reader: { allow_hosts: ['127.0.0.1'] },
    });
    // As `serve` starts it: the remote model downloads in the background, retried after a failure.
    await s.t.services.engines!.warmUp({ download: true, retry: { firstDelayMs: 200, maxDelayMs: 200 } });
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    await host?.close();
    await site?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('Models: every code with its deployments, engines and state; a download shows its progress', async () => {
    const page = await open(s, 'Models', 'Models');
    const row = (code: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: code }) });
    await expect
      .poll(() => row('gen-5').locator('.state').first().textContent(), { timeout: 30_000 })
      .toMatch(/downloading\s*50%/);
    expect(await row('gen-5').getByRole('progressbar', { name: 'Download progress' }).getAttribute('value')).toBe('50');
    const local = row('gen-4.6');
    expect(await local.locator('.state').first().textContent()).toMatch(/ready|not loaded/);
    expect(await local.getByText('gen-4.6[0]').count()).toBe(1);
    expect(await local.getByText('llama-cpp').count()).toBe(1);
    expect(await local.getByText(/programmed-thinking\.gguf$/).count()).toBe(1);
    expect(await page.getByRole('status').textContent()).toMatch(/3 model codes, \d ready, 0 requests in flight/);
    await screenshot(page, 'models-desktop');
    const phone = await open(s, 'Models', 'Models', PHONE);
    await phone.getByText('downloading').first().waitFor();
    await screenshot(phone, 'models-phone');
    await phone.close();

    host.release();
    await expect
      .poll(() => row('gen-5').locator('.state').first().textContent(), { timeout: 30_000 })
      .toMatch(/ready|not loaded/);
    await page.close();
  });

  it('Search: crawls a site and imports a JSONL file with progress; the documents are listed and searchable', async () => {
    const page = await open(s, 'Search', 'Search index');
    await page.getByText('The index is empty.').waitFor();
    await page.getByLabel('Start URL').fill(site.url);
    await page.getByLabel('Pages at most').fill('10');
    await page.getByLabel('Link depth').fill('1');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    const crawl = page.getByRole('row').filter({ hasText: 'Crawl' });
    await expect.poll(() => crawl.textContent(), { timeout: 60_000 }).toMatch(/done.*3 pages indexed/);

    await page.getByLabel('JSONL file', { exact: true }).setInputFiles({
      name: 'kb.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(
        [
          JSON.stringify({ url: 'https://kb.example/tides', title: 'Tide tables', content: 'High water at noon.' }),
          JSON.stringify({ url: 'https://kb.example/moorings', title: 'Moorings', content: 'Buoys and chains.' }),
          '{"url": "broken',
        ].join('\n'),
      ),
    });
    await page.getByLabel('Collection', { exact: true }).nth(1).fill('kb');
    await page.getByRole('button', { name: 'Import' }).click();
    const imported = page.getByRole('row').filter({ hasText: 'kb.jsonl' });
    await expect.poll(() => imported.textContent(), { timeout: 30_000 }).toMatch(/done.*2 imported.*1 failed/);
    await expect.poll(() => page.getByRole('rowheader', { name: 'Lighthouse keeping' }).count()).toBe(1);
    expect(await page.getByRole('rowheader', { name: 'Tide tables' }).count()).toBe(1);
    // Crawled pages went to the default collection (web), the import to `kb`.
    await page.getByLabel('Collection', { exact: true }).last().selectOption('kb');
    await expect.poll(() => page.getByRole('rowheader', { name: 'Lighthouse keeping' }).count()).toBe(0);
    expect(await page.getByRole('rowheader', { name: 'Tide tables' }).count()).toBe(1);
    expect(await page.getByText('1–2 of 2').count()).toBe(1);
    await page.getByLabel('Collection', { exact: true }).last().selectOption('');
    await screenshot(page, 'search-desktop');

    const res = await fetch(`${s.base}/paas/v4/web_search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ search_engine: 'search-prime', search_query: 'lighthouse survey' }),
    });
    const found = (await res.json()) as { search_result?: { link: string }[] };
    expect(found.search_result?.[0]?.link).toBe(`${site.url}lighthouse`);

    const phone = await open(s, 'Search', 'Search index', PHONE);
    await phone.getByRole('rowheader', { name: 'Tide tables' }).waitFor();
    await screenshot(phone, 'search-phone');
    await phone.close();
    await page.close();
  });
});
