import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReaderService } from '../../../src/services/reader/index.js';
import { type FixtureServer, startFixtureServer } from './fixture-server.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`SKIPPED browser tests: ${CHROMIUM} is absent (apt-get install chromium)`);

describe.skipIf(!hasChromium)('browser rendering (Debian chromium)', () => {
  let server: FixtureServer;
  const auto = createReaderService({ allowHosts: ['127.0.0.1'], browser: 'auto', chromiumPath: CHROMIUM });
  const always = createReaderService({ allowHosts: ['127.0.0.1'], browser: 'always', chromiumPath: CHROMIUM });
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(async () => {
    await auto.close();
    await always.close();
    await server.close();
  });

  it('static reading does not see script-built text', async () => {
    const never = createReaderService({ allowHosts: ['127.0.0.1'] });
    try {
      const { result } = await never.read({ url: `${server.origin}/fixtures/script-built.html` });
      expect(result.content).not.toContain('lighthouse keeper');
    } finally {
      await never.close();
    }
  });

  it('auto renders a page whose text is built by a script', async () => {
    const { result } = await auto.read({ url: `${server.origin}/fixtures/script-built.html`, timeout: 15 });
    expect(result.content).toContain('lighthouse keeper');
    expect(result.content).toContain('headless browser runs the script');
    expect(result.title).toBe('Built by script');
  });

  it('auto leaves pages with text to the static path', async () => {
    const { result } = await auto.read({ url: `${server.origin}/fixtures/article.html` });
    expect(result.content).toContain('forty metres');
  });

  it("the page's own requests go through the address guard", async () => {
    const { result } = await always.read({ url: `${server.origin}/fixtures/script-fetch.html`, timeout: 15 });
    expect(result.content).toContain('The metadata request was refused');
    expect(result.content).not.toContain('LEAKED');
  });
});
