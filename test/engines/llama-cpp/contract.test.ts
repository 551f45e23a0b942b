import { createLlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import { runChatEngineContract } from '../../contracts/chat-engine.contract.js';
import { tempModels } from './fixture.js';

for (const variant of ['programmed', 'thinking'] as const) {
  runChatEngineContract(`llama-cpp on the ${variant} test model`, async () => {
    const models = await tempModels();
    const engine = await createLlamaCppEngine({
      modelPath: models.paths[variant],
      threads: 1,
      contextSize: 2048,
      parallel: 2,
    });
    return {
      engine,
      async close() {
        await engine.close();
        await models.cleanup();
      },
    };
  });
}
