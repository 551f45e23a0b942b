import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../../util/private-files.js';

/** AES-256-GCM under the server key; the stored form is `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the server key must be 32 bytes');
    this.key = key;
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown sealed-secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** What the first start says of the key it made: where it is, and how to keep it elsewhere. */
export const createdKeyMessage = (file: string) =>
  `Created the server key ${file} (it encrypts stored secrets). To keep it outside the data directory, move its 64 hex characters to security.secret_key or GEN_PLATFORM_SECRET_KEY.`;

/**
 * The configured server key, or the one in `<dataDir>/server.key`, created on first start with
 * mode 0600 so that only the server's user can read it; `onCreate` hears of the creation.
 */
export function loadServerKey(
  configured: string | undefined,
  dataDir: string,
  onCreate?: (file: string) => void,
): Buffer {
  if (configured) return Buffer.from(configured, 'hex');
  const file = path.join(dataDir, 'server.key');
  if (!existsSync(file)) {
    ensurePrivateDir(dataDir);
    try {
      writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
      onCreate?.(file);
    } catch (err) {
      // Another process (the CLI beside the server) created it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  chmodSync(file, 0o600);
  const hex = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file} is not a 64-hex-character server key`);
  return Buffer.from(hex, 'hex');
}
