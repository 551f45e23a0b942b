import { checkedOptions, configuredDeployments, type Deployment, validateDeployment } from '../../config/deployment.js';
import type { Config, DeploymentConfig } from '../../config/schema.js';
import { DEPLOYMENT_CAP_KEYS, type DeploymentCap, DeploymentCapSchema } from '../../engines/chat/deployment-cap.js';
import type { ChatEngineFactory } from '../../engines/chat/factory.js';
import { EMBEDDED_ENGINE } from '../../engines/chat/registry.js';
import { CHAT_MODEL_CODES, isImageModelCode, TOKENIZER_MODEL_CODES } from '../../models/catalogue.js';

/** A chat deployment: what every deployment is (config/deployment.ts), and the cap any chat engine may carry. */
export interface ChatDeployment extends Deployment<ChatEngineFactory> {
  /** The concurrency cap every chat deployment may carry, whatever its engine. */
  cap: DeploymentCap;
}

/** A chat deployment: its cap (deployment-cap.ts) apart, the rest checked by its engine's schema. */
function validateChatDeployment(
  raw: DeploymentConfig,
  where: string,
  factories: Readonly<Record<string, ChatEngineFactory>>,
): ChatDeployment {
  const rest: Record<string, unknown> = { ...raw };
  const cap: Record<string, unknown> = {};
  for (const key of DEPLOYMENT_CAP_KEYS) {
    if (key in rest) cap[key] = rest[key];
    delete rest[key];
  }
  return {
    ...validateDeployment(rest as DeploymentConfig, where, factories),
    cap: checkedOptions(DeploymentCapSchema, cap, where) as DeploymentCap,
  };
}

/** Every chat model code this server can serve, with its deployments: the configured ones and the embedded default. */
export function resolveDeployments(
  config: Config,
  factories: Readonly<Record<string, ChatEngineFactory>>,
): Map<string, ChatDeployment[]> {
  // Image codes belong to the image engines (services/images/image-directory.ts).
  const out = configuredDeployments(
    config,
    (code) => !isImageModelCode(code),
    (raw, where) => validateChatDeployment(raw, where, factories),
  );
  const { embedded } = config;
  if (embedded.default_model) {
    const fallback = {
      engine: EMBEDDED_ENGINE,
      model: embedded.default_model,
      context_size: embedded.context_size,
      parallel: embedded.parallel,
    };
    const deployment = validateChatDeployment(fallback as DeploymentConfig, 'embedded', factories);
    for (const code of [...CHAT_MODEL_CODES, ...TOKENIZER_MODEL_CODES]) if (!out.has(code)) out.set(code, [deployment]);
  }
  return out;
}
