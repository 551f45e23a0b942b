import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ConfigError } from './config-error.js';
import type { Config, DeploymentConfig } from './schema.js';

/**
 * Deployment validation for every kind of engine (chat, images): the config names an engine, the
 * engine's factory declares the schema of its options. Generic over the factory, so that nothing
 * here knows what an engine is or which ones exist.
 */

/** What every engine factory declares: the TypeBox schema of a deployment's options. */
export interface DeploymentFactory {
  readonly schema: TSchema;
}

/** One validated deployment: its engine's factory and its options with the schema's defaults. */
export interface Deployment<F extends DeploymentFactory = DeploymentFactory> {
  factory: F;
  options: Record<string, unknown>;
  /** Deployments with equal options share one engine (one loaded model, one connection pool). */
  identity: string;
  /** Where the configuration defines it: `gen-4.6[0]` (models.gen-4.6.deployments[0]) or `embedded`. */
  label: string;
}

/** `value` with the schema's defaults, or a ConfigError naming the first key that breaks it. */
export function checkedOptions(schema: TSchema, value: unknown, where: string): Record<string, unknown> {
  const options = Value.Default(schema, structuredClone(value)) as Record<string, unknown>;
  const first = Value.Errors(schema, options).First();
  if (first) {
    const key = first.path.replace(/^\//, '').replaceAll('/', '.');
    throw new ConfigError(
      `config: ${where}${key ? `.${key}` : ''}: ${first.message}, got ${JSON.stringify(first.value)}`,
    );
  }
  return options;
}

/** A deployment checked against its engine's schema; a ConfigError names the key when it is not one. */
export function validateDeployment<F extends DeploymentFactory>(
  raw: DeploymentConfig,
  where: string,
  factories: Readonly<Record<string, F>>,
): Deployment<F> {
  const factory = factories[raw.engine];
  if (!factory)
    throw new ConfigError(
      `config: ${where}.engine: unknown engine "${raw.engine}"; known: ${Object.keys(factories).join(', ')}`,
    );
  const options = checkedOptions(factory.schema, raw, where);
  return {
    factory,
    options,
    identity: JSON.stringify(options),
    label: where.replace(/^models\.(.*)\.deployments/, '$1'),
  };
}

/**
 * The configured deployments of the model codes a kind of engine serves (`serves`), each validated
 * by `validate` (given its place in the config, to name in errors).
 */
export function configuredDeployments<D>(
  config: Config,
  serves: (code: string) => boolean,
  validate: (raw: DeploymentConfig, where: string) => D,
): Map<string, D[]> {
  const out = new Map<string, D[]>();
  for (const [code, { deployments }] of Object.entries(config.models)) {
    if (!serves(code)) continue;
    out.set(
      code,
      deployments.map((d, i) => validate(d, `models.${code}.deployments[${i}]`)),
    );
  }
  return out;
}
