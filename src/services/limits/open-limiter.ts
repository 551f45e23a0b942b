import type { Config } from '../../config/schema.js';
import type { Store } from '../../stores/types.js';
import { MemorySignInLimiter, type SignInLimiter } from '../accounts/sign-in-limiter.js';
import { KeyLimiter } from './key-limiter.js';
import type { Limiter } from './limiter.js';
import { RedisLimiter } from './redis/redis-limiter.js';
import { RedisSignInLimiter } from './redis/redis-sign-in-limiter.js';
import type { PendingUsage } from './stored-windows.js';

export interface LimiterDeps {
  store: Store;
  pending: PendingUsage;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** The configured limiter: in Redis when `redis.url` is set (several processes), else in process. */
export async function openLimiter(config: Config, deps: LimiterDeps): Promise<Limiter> {
  const { url, prefix, lease_seconds, timeout_ms } = config.redis;
  if (!url) return new KeyLimiter({ store: deps.store, defaults: config.limits, pending: deps.pending });
  let lastLogged = 0;
  const limiter = new RedisLimiter({
    url,
    prefix,
    leaseMs: Math.round(lease_seconds * 1000),
    timeoutMs: timeout_ms,
    store: deps.store,
    pending: deps.pending,
    defaults: config.limits,
    // A dead Redis fails every limited request and every reconnect: log it once a second at most.
    onError(err, what) {
      const now = Date.now();
      if (now - lastLogged < 1000) return;
      lastLogged = now;
      deps.log.error({ err }, `Redis (limits): ${what} failed`);
    },
  });
  if (!(await limiter.ready(5000))) {
    deps.log.warn({}, 'Redis is not reachable yet: requests of keys with limits fail with 1234 until it is');
  }
  return limiter;
}

/** Where failed console sign-ins are counted: in Redis when `redis.url` is set (shared), else in process. */
export async function openSignInLimiter(config: Config, log: LimiterDeps['log']): Promise<SignInLimiter> {
  const maxDelayMs = config.console.sign_in_max_delay_seconds * 1000;
  const { url, prefix, timeout_ms } = config.redis;
  if (!url) return new MemorySignInLimiter(maxDelayMs);
  let lastLogged = 0;
  const limiter = new RedisSignInLimiter({
    url,
    prefix,
    timeoutMs: timeout_ms,
    maxDelayMs,
    onError(err, what) {
      const now = Date.now();
      if (now - lastLogged < 1000) return;
      lastLogged = now;
      log.error({ err }, `Redis (sign-in limits): ${what} failed`);
    },
  });
  if (!(await limiter.ready(5000)))
    log.warn({}, 'Redis is not reachable yet: console sign-ins fail with 1234 until it is');
  return limiter;
}
