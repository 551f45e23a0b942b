import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';

const load = (yaml: string) => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'config-images-'));
  writeFileSync(path.join(cwd, 'gen-platform.yaml'), yaml);
  return loadConfig({ cwd, env: {} }).config;
};

describe('images and safety configuration', () => {
  it('has documented defaults', () => {
    const config = load('{}\n');
    expect(config.images).toEqual({
      concurrency: 2,
      queue_size: 100,
      queue_per_key: 20,
      queue_per_account: 50,
      max_attempts: 3,
      lease_seconds: 20,
      poll_interval_ms: 1000,
      timeout_seconds: 600,
      max_image_bytes: 64 * 1024 * 1024,
    });
    expect(config.safety).toEqual({ block_terms: [], guard_max_tokens: 32, on_guard_error: 'refuse' });
    expect(config.files.ttl).toBe(30 * 24 * 3600);
  });

  it.each([
    ['images:\n  concurrency: 0\n', /images\.concurrency/],
    ['images:\n  lease_seconds: 120\n', /images\.lease_seconds/],
    ['images:\n  max_attempts: 0\n', /images\.max_attempts/],
    ['images:\n  queue_per_key: 0\n', /images\.queue_per_key/],
    ['images:\n  workers: 3\n', /images/],
    ['safety:\n  block_terms: [""]\n', /safety\.block_terms/],
    ['safety:\n  on_guard_error: maybe\n', /safety\.on_guard_error/],
  ])('refuses %j naming the key', (yaml, key) => {
    expect(() => load(yaml)).toThrow(ConfigError);
    expect(() => load(yaml)).toThrow(key);
  });
});
