import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexCommand } from '../../src/cli/index-command.js';
import { loadConfig } from '../../src/config/load.js';
import { closeServices, createServices } from '../../src/services/create-services.js';

describe('gen-platform index import --account', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cli-index-account-'));
  writeFileSync(path.join(dir, 'gen-platform.yaml'), 'log:\n  level: silent\nembedded:\n  default_model: ""\n');
  writeFileSync(
    path.join(dir, 'kb.jsonl'),
    `${JSON.stringify({ url: 'https://kb.example/a', title: 'A', content: 'B' })}\n`,
  );
  const env = (lines: string[]) => ({
    cwd: dir,
    vars: { GEN_PLATFORM_DATA: dir },
    out: (l: string) => lines.push(l),
    err: (l: string) => lines.push(l),
    status: () => {},
  });
  const open = () =>
    createServices(loadConfig({ cwd: dir, env: { GEN_PLATFORM_DATA: dir } }).config, { configDir: dir });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the collection to the account named; web, an unknown account or no collection are refused', async () => {
    let services = await open();
    const { account } = await services.accounts.createAccount({ name: 'Holder', email: 'holder@example.test' });
    await closeServices(services);

    const out: string[] = [];
    const run = (...argv: string[]) => indexCommand(argv, env(out));
    expect(await run('import', 'kb.jsonl', '--collection', 'kb', '--account', 'holder@example.test')).toBe(0);
    await expect(run('import', 'kb.jsonl', '--collection', 'kb2', '--account', 'nobody')).rejects.toMatchObject({
      code: 1233,
    });
    await expect(run('import', 'kb.jsonl', '--account', account.id)).rejects.toMatchObject({ code: 1214 });

    services = await open();
    try {
      expect(await services.search.index.ownerOf('kb')).toBe(`account:${account.id}`);
      expect(await services.search.index.ownerOf('kb2')).toBeUndefined();
      expect(await services.search.index.ownerOf('web')).toBeUndefined();
    } finally {
      await closeServices(services);
    }
  });
});
