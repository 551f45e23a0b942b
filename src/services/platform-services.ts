import type { Config } from '../config/schema.js';
import type { Store } from '../stores/types.js';
import type { KeyService } from './keys/key-service.js';
import type { KeyLimiter } from './limits/key-limiter.js';

/** Everything the routes call. Capabilities that later work plugs in are optional until configured. */
export interface PlatformServices {
  config: Config;
  store: Store;
  keys: KeyService;
  limiter: KeyLimiter;
}
