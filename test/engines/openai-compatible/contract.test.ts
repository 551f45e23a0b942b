import { runChatEngineContract } from '../../contracts/chat-engine.contract.js';
import { engineFor } from './helpers.js';
import { ReplayServer, sseEvents } from './replay-server.js';
import { vllmLike } from './vllm-like.js';

runChatEngineContract('openai-compatible (vLLM shapes)', async () => {
  const server = await ReplayServer.start(vllmLike);
  const engine = engineFor(server.url, { tokenizeUrl: `${server.url}/tokenize` });
  return {
    engine,
    close: async () => {
      await engine.close();
      await server.close();
    },
  };
});

runChatEngineContract(
  'openai-compatible (Ollama shapes, upstream ids)',
  async () => {
    const server = await ReplayServer.start((request) => ({
      pieces: sseEvents(Array.isArray(request.body['tools']) ? 'ollama-tool-call.sse' : 'ollama-reasoning.sse'),
      delayMs: 5,
    }));
    const engine = engineFor(server.url, {
      model: 'qwen3:1.7b',
      toolCallIds: 'upstream',
      thinking: { reasoningEffort: { enabled: 'medium', disabled: 'none' } },
    });
    return {
      engine,
      close: async () => {
        await engine.close();
        await server.close();
      },
    };
  },
  { toolCallIdsPassedThrough: true },
);
