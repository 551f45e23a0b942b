import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleServer,
  createKeyInUi,
  DESKTOP,
  PHONE,
  screenshot,
  signInAsAdmin,
  startConsole,
} from './browser.js';

/** Signs in, creates a key (which the playground then offers) and opens the playground. */
async function openPlayground(s: ConsoleServer, viewport = DESKTOP): Promise<Page> {
  const page = await s.browser.newPage({ viewport });
  await signInAsAdmin(page, s.base);
  await createKeyInUi(page, `pg-${Date.now()}`);
  await page.getByRole('link', { name: 'Playground' }).click();
  await page.getByRole('heading', { name: 'Playground' }).waitFor();
  return page;
}

describe('console in Chromium: the playground', { timeout: 120_000 }, () => {
  let s: ConsoleServer;
  beforeAll(async () => {
    s = await startConsole();
  }, 120_000);
  afterAll(() => s?.close());

  it('streams a chat reply with the reasoning apart from the answer, and shows the curl command', async () => {
    const page = await openPlayground(s);
    // A key created in this tab is offered; the default is the signed-in user's short-lived token.
    const credentials = page.getByLabel('Credentials');
    expect(await credentials.locator('option').nth(1).textContent()).toMatch(/^Key created in this tab: pg-/);
    await expect.poll(() => credentials.locator('option').first().textContent()).toMatch(/until \d\d:\d\d/);
    await page.getByLabel('Thinking').check();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => page.locator('.answer').textContent(), { timeout: 30_000 })
      .toBe('Hello from the test model.');
    expect(await page.locator('.reasoning pre').textContent()).toBe('Let me think...');
    expect(await page.getByText(/finish: stop/).count()).toBe(1);
    await page.getByText('Equivalent curl command').first().click();
    const curl = await page.locator('.curl pre').first().textContent();
    expect(curl).toContain(`curl -N -X POST '${s.base}/paas/v4/chat/completions'`);
    expect(curl).toContain('"thinking": {');
    // The token expires within the hour: the command shows it, ready to paste into a terminal.
    const token = /Bearer (eyJ[\w-]+\.[\w-]+\.[\w-]+)/.exec(curl ?? '')?.[1];
    expect(token).toBeDefined();
    const replay = await fetch(`${s.base}/paas/v4/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gen-4.6', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(replay.status).toBe(200);
    await screenshot(page, 'playground-chat-desktop');
    // A key of one's own stays a variable in the command.
    await credentials.selectOption({ index: 1 });
    expect(await page.locator('.curl pre').first().textContent()).toContain('$GEN_PLATFORM_API_KEY');
    await page.close();
  });

  it('asks for JSON mode and for tools, and shows the JSON answer and the tool call', async () => {
    const page = await openPlayground(s);
    await page.getByLabel('Model').fill('gen-4.5');
    await page.getByLabel('JSON mode').check();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => page.locator('.answer').textContent(), { timeout: 30_000 })
      .toBe('{"reply": "Hello from the test model."}');
    await page.getByLabel('JSON mode').uncheck();
    await page.getByLabel('Tools', { exact: true }).check();
    await page.getByLabel('Stream').uncheck();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByText(/get_weather\(/).count(), { timeout: 30_000 }).toBe(1);
    await page.close();
  });

  it('searches the web index and reads a page, each with its curl command', async () => {
    const page = await openPlayground(s, PHONE);
    await page.getByRole('tab', { name: 'Web search' }).click();
    await page.getByLabel('Search query').fill('anything');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No results.').waitFor();
    expect(await page.locator('#panel-search .curl pre').textContent()).toContain('/paas/v4/web_search');
    // Arrow keys move between the tabs.
    await page.getByRole('tab', { name: 'Web search' }).press('ArrowLeft');
    expect(await page.getByRole('tab', { name: 'Reader' }).getAttribute('aria-selected')).toBe('true');
    await page.getByLabel('Page URL').fill('http://127.0.0.1:1/nothing');
    await page.getByRole('button', { name: 'Read' }).click();
    await page.getByRole('alert').waitFor();
    await screenshot(page, 'playground-phone');
    await page.close();
  });

  it('polls an asynchronous image task until it succeeds', async () => {
    const page = await openPlayground(s);
    // The image engine is outside this test: the page is given the spec's task shapes.
    let polls = 0;
    await page.route('**/paas/v4/async/images/generations', (route) =>
      route.fulfill({ json: { model: 'gen-image', id: 'task-1', request_id: 'r1', task_status: 'PROCESSING' } }),
    );
    await page.route('**/paas/v4/async-result/task-1', (route) => {
      polls++;
      const done = polls >= 2;
      return route.fulfill({
        json: done
          ? {
              id: 'task-1',
              task_status: 'SUCCESS',
              image_result: [{ url: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' }],
            }
          : { id: 'task-1', task_status: 'PROCESSING' },
      });
    });
    await page.getByRole('tab', { name: 'Images' }).click();
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByRole('img', { name: /Generated:/ }).waitFor({ timeout: 15_000 });
    expect(polls).toBe(2);
    expect(await page.getByText('Task task-1: SUCCESS').count()).toBe(1);
    await page.close();
  });

  it('runs the translation agent and shows its text', async () => {
    const page = await openPlayground(s);
    let sent: unknown;
    await page.route('**/paas/v4/v1/agents', (route) => {
      sent = route.request().postDataJSON();
      return route.fulfill({
        json: {
          id: 'a1',
          agent_id: 'general_translation',
          status: 'success',
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              messages: [{ role: 'assistant', content: { type: 'text', text: '早上好' } }],
            },
          ],
          usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, total_calls: 1 },
        },
      });
    });
    await page.getByRole('tab', { name: 'Translation' }).click();
    await page.getByLabel('Text to translate').fill('Good morning');
    await page.getByRole('button', { name: 'Translate' }).click();
    await page.getByText('早上好').waitFor();
    expect(sent).toMatchObject({
      agent_id: 'general_translation',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Good morning' }] }],
      custom_variables: { source_lang: 'auto', target_lang: 'zh-CN', strategy: 'general' },
    });
    await page.close();
  });
});
