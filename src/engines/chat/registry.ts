import type { ChatEngineFactory } from './factory.js';
import { llamaCppFactory } from './llama-cpp/factory.js';
import { llamaServerFactory } from './llama-server/factory.js';
import { openAICompatibleFactory } from './openai-compatible/factory.js';

/** The chat engines a deployment can name: the one place where engine names meet implementations. */
export const CHAT_ENGINES: Readonly<Record<string, ChatEngineFactory>> = {
  'llama-cpp': llamaCppFactory,
  'llama-server': llamaServerFactory,
  'openai-compatible': openAICompatibleFactory,
};

/** The engine of the embedded default deployment (`embedded.default_model`). */
export const EMBEDDED_ENGINE = 'llama-cpp';
