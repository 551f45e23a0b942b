import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'config-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

describe('loadConfig', () => {
  it('fills every default without a file', () => {
    const cwd = dirWith({});
    const { config, file } = loadConfig({ cwd, env: {} });
    expect(file).toBeUndefined();
    expect(config.server).toMatchObject({ host: '127.0.0.1', port: 8080, body_limit: 10 * 1024 * 1024 });
    expect(config.data_dir).toBe(path.join(cwd, 'data'));
    expect(config.limits).toEqual({ concurrent: 8, requests_per_minute: 0, windows: [] });
    expect(config.models).toEqual({});
  });

  it('reads ./gen-platform.yaml, resolving its paths against the file', () => {
    const cwd = dirWith({ 'gen-platform.yaml': 'server:\n  port: 9090\ndata_dir: ./state\n' });
    const { config, file } = loadConfig({ cwd, env: {} });
    expect(file).toBe(path.join(cwd, 'gen-platform.yaml'));
    expect(config.server.port).toBe(9090);
    expect(config.data_dir).toBe(path.join(cwd, 'state'));
  });

  it('lets the environment override the file and flags override both', () => {
    const cwd = dirWith({ 'c.yaml': 'server:\n  port: 9090\n  host: 0.0.0.0\n' });
    const env = { GEN_PLATFORM_CONFIG: 'c.yaml', PORT: '7070', DATABASE_URL: 'postgres://x@h/db', LOG_LEVEL: 'warn' };
    const { config } = loadConfig({ cwd, env, flags: { host: '127.0.0.2', data: 'd' } });
    expect(config.server).toMatchObject({ port: 7070, host: '127.0.0.2' });
    expect(config.database.url).toBe('postgres://x@h/db');
    expect(config.log.level).toBe('warn');
    expect(config.data_dir).toBe(path.join(cwd, 'd'));
  });

  it.each([
    ['server:\n  port: 70000\n', /server\.port/],
    ['server:\n  port: abc\n', /server\.port/],
    ['server:\n  colour: blue\n', /server/],
    ['limits:\n  requests_per_minute: -1\n', /limits\.requests_per_minute/],
    ['database:\n  url: mysql://x\n', /database\.url/],
    ['security:\n  secret_key: short\n', /security\.secret_key/],
    ['models:\n  gen-4.6:\n    deployments: []\n', /models\.gen-4\.6\.deployments/],
    ['log:\n  level: loud\n', /log\.level/],
    ['nonsense_key: 1\n', /nonsense_key|root/],
  ])('refuses %j naming the key', (yaml, pattern) => {
    const cwd = dirWith({ 'gen-platform.yaml': yaml });
    expect(() => loadConfig({ cwd, env: {} })).toThrow(ConfigError);
    expect(() => loadConfig({ cwd, env: {} })).toThrow(pattern);
  });

  it('refuses a bad PORT and unreadable or malformed files', () => {
    const cwd = dirWith({ 'bad.yaml': 'server: [\n' });
    expect(() => loadConfig({ cwd, env: { PORT: 'eighty' } })).toThrow(/PORT/);
    expect(() => loadConfig({ cwd, env: {}, file: 'missing.yaml' })).toThrow(/cannot be read/);
    expect(() => loadConfig({ cwd, env: {}, file: 'bad.yaml' })).toThrow(/bad\.yaml/);
  });
});
