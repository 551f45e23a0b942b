import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createdKeyMessage, loadServerKey } from '../../../src/services/keys/secret-box.js';

describe('the server key at first start', () => {
  it('says where it made the key and that security.secret_key or GEN_PLATFORM_SECRET_KEY keep it elsewhere, once', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'server-key-'));
    try {
      const said: string[] = [];
      const first = loadServerKey(undefined, dir, (file) => said.push(createdKeyMessage(file)));
      const again = loadServerKey(undefined, dir, (file) => said.push(createdKeyMessage(file)));
      expect(again.equals(first)).toBe(true);
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(path.join(dir, 'server.key'));
      expect(said[0]).toContain('security.secret_key');
      expect(said[0]).toContain('GEN_PLATFORM_SECRET_KEY');
      // A configured key makes no file and says nothing.
      const configured = loadServerKey('ab'.repeat(32), path.join(dir, 'other'), () => said.push('made'));
      expect(configured).toHaveLength(32);
      expect(said).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
