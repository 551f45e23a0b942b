import path from 'node:path';
import type { Config } from '../config/schema.js';
import { LocalFileStore } from './local/local-file-store.js';
import type { FileStore } from './types.js';

/** The configured file store: a local folder (default `<data_dir>/files`). */
export function openFileStore(config: Config): FileStore {
  return new LocalFileStore({
    dir: config.files.dir ?? path.join(config.data_dir, 'files'),
    ttlMs: config.files.ttl * 1000,
  });
}
