import { Redis } from 'ioredis';

/**
 * A connection for limits: it fails at once while disconnected rather than queue commands behind
 * a dead connection, waits at most `timeoutMs` per command, and reconnects by itself.
 */
export function limitsConnection(url: string, timeoutMs: number, onError: (err: unknown) => void): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
  redis.on('error', onError);
  return redis;
}

/** Resolves true once connected, or false after `ms`. */
export function whenReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), ms);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    redis.on('ready', onReady);
  });
}
