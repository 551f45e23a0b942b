import { RedisLimiter } from '../../../src/services/limits/redis/redis-limiter.js';
import { runLimiterContract } from '../../contracts/limiter.contract.js';
import { freshPrefix, REDIS_URL } from '../../helpers/redis.js';

runLimiterContract('redis', async (store, defaults) => {
  const limiter = new RedisLimiter({
    url: REDIS_URL,
    prefix: freshPrefix(),
    leaseMs: 30_000,
    timeoutMs: 2000,
    store,
    defaults,
    onError(err) {
      throw err;
    },
  });
  if (!(await limiter.ready(5000))) throw new Error(`Redis is not reachable at ${REDIS_URL}`);
  return { limiter, close: () => limiter.close() };
});
