import path from 'node:path';
import type { Config } from '../config/schema.js';
import { CappedFileStore } from './capped-file-store.js';
import { LocalFileStore } from './local/local-file-store.js';
import type { FileStore } from './types.js';

/**
 * The configured file store: a local folder (default `<data_dir>/files`), within the caps of
 * `files.*`; `accountOf` names the account a key's files count against.
 */
export function openFileStore(
  config: Config,
  accountOf: (keyId: string) => Promise<string | undefined> = async () => undefined,
): FileStore {
  const local = new LocalFileStore({
    dir: config.files.dir ?? path.join(config.data_dir, 'files'),
    ttlMs: config.files.ttl * 1000,
  });
  const f = config.files;
  return new CappedFileStore(
    local,
    {
      maxTotalBytes: f.max_total_bytes,
      maxTotalFiles: f.max_total_files,
      maxBytesPerAccount: f.max_bytes_per_account,
      maxFilesPerAccount: f.max_files_per_account,
    },
    async (keyId) => {
      const account = await accountOf(keyId);
      return account === undefined ? `key:${keyId}` : `account:${account}`;
    },
  );
}
