import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateDeployment } from '../../../src/config/deployment.js';
import type { DeploymentConfig } from '../../../src/config/schema.js';
import type { ImageEngineContext } from '../../../src/engines/image/factory.js';
import { IMAGE_ENGINES } from '../../../src/engines/image/registry.js';
import type { ImageEngine } from '../../../src/engines/image/types.js';
import { createGuardedFetcher } from '../../../src/net/fetcher.js';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export const quietLog = { info() {}, warn() {}, error() {} };

export const imageContext = (extra: Partial<ImageEngineContext> = {}): ImageEngineContext => ({
  configDir: FIXTURES,
  log: quietLog,
  maxImageBytes: 16 * 1024 * 1024,
  timeoutMs: 30_000,
  outbound: createGuardedFetcher(),
  ...extra,
});

/** An engine made the way the server makes it: the deployment validated and defaulted by its schema. */
export function createImageEngine(
  raw: Record<string, unknown>,
  extra: Partial<ImageEngineContext> = {},
): Promise<ImageEngine> {
  const d = validateDeployment(raw as DeploymentConfig, 'test', IMAGE_ENGINES);
  return d.factory.create(d.options, imageContext(extra));
}

/** The SD txt2img workflow's mapping (fixtures/sd-txt2img-api.json). */
export const COMFY_INPUTS = {
  prompt: { node: '6', input: 'text' },
  negative_prompt: { node: '7', input: 'text' },
  width: { node: '5', input: 'width' },
  height: { node: '5', input: 'height' },
  seed: { node: '3', input: 'seed' },
  steps: { node: '3', input: 'steps' },
  sampler: { node: '3', input: 'sampler_name' },
  scheduler: { node: '3', input: 'scheduler' },
  cfg: { node: '3', input: 'cfg' },
};
