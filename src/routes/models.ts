import { ModelsReply } from '../api/models-reply.js';
import { modelAllowed } from '../services/keys/key-policy.js';
import { listModels } from '../services/models/model-list.js';
import { defineOperation, type Operation } from './operation.js';

/** OpenAI-ecosystem tools (Open WebUI, LibreChat, Continue...) call `GET {base}/models` first. */
const modelsOn = (base: Operation['base'], id: string) =>
  defineOperation({
    id,
    method: 'GET',
    path: '/models',
    base,
    reply: ModelsReply,
    summary:
      'The chat and image models this server serves, each with its state (ready, downloading, failed, not_loaded)',
    async handle({ services, key, request }) {
      // Only what the key may call: a model outside its (or its account's) allowlist is not offered.
      const account = request.keyAccount?.models;
      const data = listModels(services.engines, services.config).filter(
        (m) => modelAllowed(key.policy?.models, m.id) && modelAllowed(account, m.id),
      );
      return { object: 'list' as const, data };
    },
  });

export const models = modelsOn('paas', 'models.list');
/** The same list at `/v1/models`, where clients configured with an OpenAI-style `/v1` base look. */
export const modelsV1 = modelsOn('agents', 'models.list.v1');
