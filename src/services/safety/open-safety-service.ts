import { ConfigError } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import type { EngineContext } from '../../engines/chat/factory.js';
import type { EngineDirectory } from '../chat/engine-directory.js';
import { guardClassifier } from './guard-model.js';
import { SafetyService } from './safety-service.js';

/** The configured safety policy; a guard model must be a configured chat model code. */
export function openSafetyService(config: Config, engines: EngineDirectory, log: EngineContext['log']): SafetyService {
  const { safety } = config;
  const code = safety.guard_model;
  if (code !== undefined && !engines.has(code)) {
    throw new ConfigError(
      `config: safety.guard_model: "${code}" is not a configured chat model code; add it under \`models\``,
    );
  }
  return new SafetyService({
    blockTerms: safety.block_terms,
    guard:
      code === undefined
        ? undefined
        : guardClassifier(
            () => engines.get(code) ?? Promise.reject(new Error(`no engine for ${code}`)),
            safety.guard_max_tokens,
          ),
    onGuardError: safety.on_guard_error,
    log,
  });
}
