import { KeyLimiter } from '../../../src/services/limits/key-limiter.js';
import { runLimiterContract } from '../../contracts/limiter.contract.js';

runLimiterContract('in-process', async (store, defaults) => ({
  limiter: new KeyLimiter({ store, defaults }),
  async close() {},
}));
