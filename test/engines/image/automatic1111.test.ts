import { runImageEngineContract } from '../../contracts/image-engine.contract.js';
import { createImageEngine } from './helpers.js';
import { startA1111Replay } from './replay/a1111-replay.js';

runImageEngineContract('automatic1111', async () => {
  const replay = await startA1111Replay();
  return {
    replay,
    engine: (url = replay.url) => createImageEngine({ engine: 'automatic1111', base_url: url }),
    steps: { hd: 30, standard: 20 },
    cancelledBy: 'interrupt',
  };
});

runImageEngineContract('automatic1111 with quality overrides', async () => {
  const replay = await startA1111Replay();
  return {
    replay,
    engine: (url = replay.url) =>
      createImageEngine({
        engine: 'automatic1111',
        base_url: url,
        quality: { hd: { steps: 50 }, standard: { steps: 8, sampler: 'Euler a' } },
      }),
    steps: { hd: 50, standard: 8 },
    cancelledBy: 'interrupt',
  };
});
