import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/args.js';
import { keysCommand } from '../../src/cli/keys.js';
import { loadConfig } from '../../src/config/load.js';
import { closeServices, createServices } from '../../src/services/create-services.js';

describe('gen-platform keys create --account', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cli-account-'));
  writeFileSync(path.join(dir, 'gen-platform.yaml'), 'log:\n  level: silent\nembedded:\n  default_model: ""\n');
  const env = (lines: string[]) => ({
    cwd: dir,
    vars: { GEN_PLATFORM_DATA: dir },
    out: (l: string) => lines.push(l),
    err: (l: string) => lines.push(l),
  });
  const open = () =>
    createServices(loadConfig({ cwd: dir, env: { GEN_PLATFORM_DATA: dir } }).config, { configDir: dir });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives the key to the account named by email or id; without it the key is the admin's", async () => {
    let services = await open();
    const { account } = await services.accounts.createAccount({ name: 'Holder', email: 'holder@example.test' });
    await closeServices(services);

    const out: string[] = [];
    expect(await keysCommand(['create', '--name', 'held', '--account', 'holder@example.test'], env(out))).toBe(0);
    expect(await keysCommand(['create', '--name', 'held-by-id', '--account', account.id], env(out))).toBe(0);
    expect(await keysCommand(['create', '--name', 'admins'], env(out))).toBe(0);
    await expect(keysCommand(['create', '--name', 'x', '--account', 'nobody'], env(out))).rejects.toThrow(UsageError);

    services = await open();
    try {
      const names = (await services.keyAccess.list({ kind: 'account', account })).map((k) => k.name);
      expect(names.sort()).toEqual(['held', 'held-by-id']);
      const all = await services.keyAccess.list({ kind: 'admin' });
      expect(all.find((k) => k.name === 'admins')?.account_id).toBeNull();
    } finally {
      await closeServices(services);
    }
  });
});
