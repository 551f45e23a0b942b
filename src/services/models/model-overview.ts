import type { Config, DeploymentConfig } from '../../config/schema.js';
import { isImageModelCode } from '../../models/catalogue.js';
import type { EngineDirectory } from '../chat/engine-directory.js';
import type { ModelState } from './model-state.js';
import { withoutCredentials } from './without-credentials.js';

export type DeploymentOverview = {
  /** Where the configuration defines it: `gen-4.6[0]`, or `embedded` (the default model). */
  deployment: string;
  engine: string;
  /** Its upstream's URL or its model file (credentials removed). */
  target: string;
  inFlight: number;
  waiting: number;
  /** Model codes served by this deployment's engine; load is the engine's, shared by all of them. */
  sharedBy: number;
} & ModelState;

export type ModelOverview = {
  code: string;
  type: 'chat' | 'image';
  inFlight: number;
  waiting: number;
  deployments: DeploymentOverview[];
} & ModelState;

/**
 * Every model code this server serves, with its deployments, their engines, state (a download's
 * progress included) and load: what the console's Models page shows. Reads what the engines keep;
 * opens nothing.
 */
export function modelOverview(engines: EngineDirectory | undefined, config: Config): ModelOverview[] {
  const load = new Map((engines?.load() ?? []).map((l) => [l.model, l]));
  const chat = (engines?.describe() ?? []).map(
    (m): ModelOverview => ({
      ...m,
      type: 'chat',
      inFlight: load.get(m.code)?.inFlight ?? 0,
      waiting: load.get(m.code)?.waiting ?? 0,
      deployments: m.deployments.map(({ up: _up, ...d }) => d),
    }),
  );
  // Image engines hold no model file here: a configured image model answers at once.
  const images = Object.entries(config.models)
    .filter(([code]) => isImageModelCode(code))
    .map(
      ([code, { deployments }]): ModelOverview => ({
        code,
        type: 'image',
        state: 'ready',
        inFlight: 0,
        waiting: 0,
        deployments: deployments.map((d, i) => ({
          deployment: `${code}[${i}]`,
          engine: d.engine,
          target: targetOf(d as DeploymentConfig),
          state: 'ready',
          inFlight: 0,
          waiting: 0,
          sharedBy: 1,
        })),
      }),
    );
  return [...chat, ...images];
}

const targetOf = (d: DeploymentConfig) => (typeof d['base_url'] === 'string' ? withoutCredentials(d['base_url']) : '');
