import type { Config } from '../../config/schema.js';
import { IMAGE_MODEL_CODES } from '../../models/catalogue.js';
import type { EngineDirectory } from '../chat/engine-directory.js';
import type { ModelState } from './model-state.js';

/** One model in the OpenAI list shape, with where it stands on this server. */
export type ModelEntry = {
  id: string;
  object: 'model';
  /** Unix seconds: when this server started serving it. */
  created: number;
  owned_by: string;
  type: 'chat' | 'image';
} & ModelState;

const STARTED = Math.floor(Date.now() / 1000);
const OWNER = 'gen-platform';

/** Every chat and image model code this server serves, in catalogue order of configuration. */
export function listModels(engines: EngineDirectory | undefined, config: Config): ModelEntry[] {
  const images = new Set(IMAGE_MODEL_CODES);
  const chat = (engines?.codes() ?? [])
    .filter((code) => !images.has(code))
    .map((code): ModelEntry => {
      const state = engines?.state(code) ?? { state: 'ready' };
      return { id: code, object: 'model', created: STARTED, owned_by: OWNER, type: 'chat', ...state };
    });
  // Image engines hold no model file here: a configured image model answers at once.
  const image = Object.keys(config.models)
    .filter((code) => images.has(code))
    .map(
      (code): ModelEntry => ({
        id: code,
        object: 'model',
        created: STARTED,
        owned_by: OWNER,
        type: 'image',
        state: 'ready',
      }),
    );
  return [...chat, ...image];
}
