import path from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ConfigError } from '../../config/load.js';
import type { Config, DeploymentConfig } from '../../config/schema.js';
import type { ChatEngineFactory, EngineContext } from '../../engines/chat/factory.js';
import { createDeploymentPool } from '../../engines/chat/pool.js';
import type { ChatEngine } from '../../engines/chat/types.js';
import { CHAT_MODEL_CODES, isImageModelCode, TOKENIZER_MODEL_CODES } from '../../models/catalogue.js';

interface Deployment<F = ChatEngineFactory> {
  factory: F;
  options: Record<string, unknown>;
  /** Deployments with equal options share one engine (one loaded model, one connection pool). */
  identity: string;
}

export function validateDeployment<F extends { readonly schema: TSchema }>(
  raw: DeploymentConfig,
  where: string,
  factories: Readonly<Record<string, F>>,
): Deployment<F> {
  const factory = factories[raw.engine];
  if (!factory)
    throw new ConfigError(
      `config: ${where}.engine: unknown engine "${raw.engine}"; known: ${Object.keys(factories).join(', ')}`,
    );
  const options = Value.Default(factory.schema, structuredClone(raw)) as Record<string, unknown>;
  const first = Value.Errors(factory.schema, options).First();
  if (first) {
    const key = first.path.replace(/^\//, '').replaceAll('/', '.');
    throw new ConfigError(
      `config: ${where}${key ? `.${key}` : ''}: ${first.message}, got ${JSON.stringify(first.value)}`,
    );
  }
  return { factory, options, identity: JSON.stringify(options) };
}

/** Every model code this server can serve, with its deployments: the configured ones and the embedded default. */
export function resolveDeployments(
  config: Config,
  factories: Readonly<Record<string, ChatEngineFactory>>,
): Map<string, Deployment[]> {
  const out = new Map<string, Deployment[]>();
  for (const [code, { deployments }] of Object.entries(config.models)) {
    // Image codes belong to the image engines (services/images/image-directory.ts).
    if (isImageModelCode(code)) continue;
    out.set(
      code,
      deployments.map((d, i) => validateDeployment(d, `models.${code}.deployments[${i}]`, factories)),
    );
  }
  const { embedded } = config;
  if (embedded.default_model) {
    const fallback = {
      engine: 'llama-cpp',
      model: embedded.default_model,
      context_size: embedded.context_size,
      parallel: embedded.parallel,
    };
    const deployment = validateDeployment(fallback as DeploymentConfig, 'embedded', factories);
    for (const code of [...CHAT_MODEL_CODES, ...TOKENIZER_MODEL_CODES]) if (!out.has(code)) out.set(code, [deployment]);
  }
  return out;
}

export function engineContext(
  config: Config,
  log: EngineContext['log'],
  cpus: number,
  configDir: string,
): EngineContext {
  return {
    configDir,
    modelsDir: config.embedded.models_dir ?? path.join(config.data_dir, 'models'),
    defaultThreads: config.embedded.threads || Math.max(1, cpus),
    log,
  };
}

/**
 * Model code → engine, created on first use so that the server starts at once and a model that
 * cannot load (no network for a download, a bad file) fails only the calls that need it.
 */
export class EngineDirectory {
  private readonly engines = new Map<string, Promise<ChatEngine>>();
  private readonly pools = new Map<string, Promise<ChatEngine>>();

  constructor(
    private readonly deployments: Map<string, Deployment[]>,
    private readonly context: EngineContext,
  ) {}

  has(code: string): boolean {
    return this.deployments.has(code);
  }

  codes(): string[] {
    return [...this.deployments.keys()];
  }

  get(code: string): Promise<ChatEngine> | undefined {
    const list = this.deployments.get(code);
    if (!list) return undefined;
    if (list.length === 1) return this.engine(list[0]!);
    const key = list.map((d) => d.identity).join('\n');
    return this.cached(this.pools, key, async () =>
      createDeploymentPool(await Promise.all(list.map((d) => this.engine(d)))),
    );
  }

  /** Downloads what the deployments of these codes need; returns what was prepared. */
  async prepare(codes: string[]): Promise<string[]> {
    const seen = new Set<string>();
    const done: string[] = [];
    for (const code of codes) {
      for (const d of this.deployments.get(code) ?? []) {
        if (seen.has(d.identity)) continue;
        seen.add(d.identity);
        const prepared = await d.factory.prepare?.(d.options, this.context);
        if (prepared) done.push(prepared);
      }
    }
    return done;
  }

  async close(): Promise<void> {
    const all = await Promise.allSettled([...this.engines.values()]);
    await Promise.all(all.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
  }

  private engine(d: Deployment): Promise<ChatEngine> {
    return this.cached(this.engines, d.identity, () => d.factory.create(d.options, this.context));
  }

  /** Shares one creation between concurrent callers; a failed one is forgotten so a later call retries. */
  private cached(
    map: Map<string, Promise<ChatEngine>>,
    key: string,
    make: () => Promise<ChatEngine>,
  ): Promise<ChatEngine> {
    let pending = map.get(key);
    if (!pending) {
      pending = make();
      map.set(key, pending);
      pending.catch(() => map.delete(key));
    }
    return pending;
  }
}
