import type { Config } from '../config/schema.js';
import { openStore } from '../stores/open-store.js';
import { KeyService } from './keys/key-service.js';
import { loadServerKey, SecretBox } from './keys/secret-box.js';
import { KeyLimiter } from './limits/key-limiter.js';
import type { PlatformServices } from './platform-services.js';

/** Opens the store and builds the services of a validated configuration. */
export async function createServices(config: Config): Promise<PlatformServices> {
  const box = new SecretBox(loadServerKey(config.security.secret_key, config.data_dir));
  const store = await openStore(config);
  const keys = new KeyService({ store, box, configuredAdminKey: config.security.admin_key });
  const limiter = new KeyLimiter({ store, defaults: config.limits });
  return { config, store, keys, limiter };
}

export async function closeServices(services: PlatformServices): Promise<void> {
  await services.store.close();
}
