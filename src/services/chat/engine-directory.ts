import path from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ConfigError } from '../../config/load.js';
import type { Config, DeploymentConfig } from '../../config/schema.js';
import {
  capGate,
  DEPLOYMENT_CAP_KEYS,
  type DeploymentCap,
  DeploymentCapSchema,
} from '../../engines/chat/deployment-cap.js';
import type { ChatEngineFactory, EngineContext } from '../../engines/chat/factory.js';
import { createDeploymentPool } from '../../engines/chat/pool.js';
import { EMBEDDED_ENGINE } from '../../engines/chat/registry.js';
import type { ChatEngine } from '../../engines/chat/types.js';
import { CHAT_MODEL_CODES, isImageModelCode, TOKENIZER_MODEL_CODES } from '../../models/catalogue.js';
import type { FairGate } from '../../util/fair-gate.js';
import { ModelDownloads, type StartOptions } from '../models/model-downloads.js';
import { withoutCredentials } from '../models/model-overview.js';
import { furthestBehind, type ModelState } from '../models/model-state.js';
import { type EngineObservers, observeEngine } from './observed-engine.js';

/** One deployment's load: requests generating and waiting on its engine, and whether it serves. */
export interface DeploymentLoad {
  deployment: string;
  engine: string;
  inFlight: number;
  waiting: number;
  up: boolean;
}

export type ModelView = {
  code: string;
  /** Each with the number of model codes its engine serves (the embedded default serves many). */
  deployments: (DeploymentLoad & ModelState & { target: string; sharedBy: number })[];
} & ModelState;

/** One gate per deployment and cap, whichever model codes use it. */
const gateKey = (d: ChatDeployment) => `${d.identity}\n${JSON.stringify(d.cap)}`;

/** What a deployment serves, for people: its upstream's URL or its model (never a key). */
function targetOf(options: Record<string, unknown>): string {
  const target = options['base_url'] ?? options['model'];
  return typeof target === 'string' ? withoutCredentials(target) : '';
}

interface Deployment<F = ChatEngineFactory> {
  factory: F;
  options: Record<string, unknown>;
  /** Deployments with equal options share one engine (one loaded model, one connection pool). */
  identity: string;
  /** Where the configuration defines it: `gen-4.6[0]` (models.gen-4.6.deployments[0]) or `embedded`. */
  label: string;
}

interface ChatDeployment extends Deployment {
  /** The concurrency cap every chat deployment may carry, whatever its engine. */
  cap: DeploymentCap;
}

/** `value` with the schema's defaults, or a ConfigError naming the first key that breaks it. */
function checked(schema: TSchema, value: unknown, where: string): Record<string, unknown> {
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
  const options = checked(factory.schema, raw, where);
  return {
    factory,
    options,
    identity: JSON.stringify(options),
    label: where.replace(/^models\.(.*)\.deployments/, '$1'),
  };
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
    cap: checked(DeploymentCapSchema, cap, where) as DeploymentCap,
  };
}

/** Every model code this server can serve, with its deployments: the configured ones and the embedded default. */
export function resolveDeployments(
  config: Config,
  factories: Readonly<Record<string, ChatEngineFactory>>,
): Map<string, ChatDeployment[]> {
  const out = new Map<string, ChatDeployment[]>();
  for (const [code, { deployments }] of Object.entries(config.models)) {
    // Image codes belong to the image engines (services/images/image-directory.ts).
    if (isImageModelCode(code)) continue;
    out.set(
      code,
      deployments.map((d, i) => validateChatDeployment(d, `models.${code}.deployments[${i}]`, factories)),
    );
  }
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

/** The key a model code's engine is cached under: its one deployment's, or its pool's. */
function poolKey(list: ChatDeployment[]): string {
  if (list.length === 1 && list[0]!.cap.max_concurrent === undefined) return list[0]!.identity;
  return `pool\n${list.map((d) => `${d.identity}\n${JSON.stringify(d.cap)}`).join('\n')}`;
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
  /** Identities of the deployments whose engine has opened. */
  private readonly opened = new Set<string>();
  /** Deployment identity → id of the model file it opens (see ModelDownloads). */
  private readonly sources = new Map<string, string>();
  private readonly downloads: ModelDownloads;
  /** Engines and pools once created, by the same keys (read by `load` without waiting). */
  private readonly created = new Map<string, ChatEngine>();
  /** Engines as tracing and metrics see them, per model code, when either is on. */
  private readonly observed = new Map<string, Promise<ChatEngine>>();
  private observers: EngineObservers = {};
  private readonly gates = new Map<string, FairGate>();

  constructor(
    private readonly deployments: Map<string, ChatDeployment[]>,
    private readonly context: EngineContext,
    downloads?: ModelDownloads,
  ) {
    this.downloads = downloads ?? new ModelDownloads(context.log);
    for (const [code, list] of deployments) {
      for (const d of list) {
        const source = d.factory.source?.(d.options, context);
        if (!source) continue;
        this.sources.set(d.identity, source.id);
        this.downloads.add(source, code);
      }
    }
  }

  /** Start-up: reports model files that cannot be served and, unless lazy, downloads the missing ones. */
  warmUp(options: StartOptions): Promise<void> {
    return this.downloads.start(options);
  }

  /** Where each served model stands: opened, on disk, downloading or failed. */
  state(code: string): ModelState | undefined {
    const list = this.deployments.get(code);
    if (!list) return undefined;
    return furthestBehind(list.map((d) => this.deploymentState(d)));
  }

  /** Each model code with its deployments: engine, what it serves, state and load (the console's Models page). */
  describe(): ModelView[] {
    const codesOf = new Map<string, number>();
    for (const list of this.deployments.values())
      for (const d of new Set(list.map((x) => x.identity))) codesOf.set(d, (codesOf.get(d) ?? 0) + 1);
    return [...this.deployments].map(([code, list]) => ({
      code,
      ...(this.state(code) ?? { state: 'ready' }),
      deployments: list.map((d) => ({
        ...this.deploymentLoadOf(d),
        target: targetOf(d.options),
        sharedBy: codesOf.get(d.identity) ?? 1,
        ...this.deploymentState(d),
      })),
    }));
  }

  /** Load of each deployment (one engine, however many codes share it) whose engine has opened, for metrics. */
  deploymentLoad(): DeploymentLoad[] {
    const seen = new Set<string>();
    const out: DeploymentLoad[] = [];
    for (const list of this.deployments.values()) {
      for (const d of list) {
        if (seen.has(d.identity) || !this.created.has(d.identity)) continue;
        seen.add(d.identity);
        out.push(this.deploymentLoadOf(d));
      }
    }
    return out;
  }

  /** Tracing and token timings of engine calls, when on (metrics add theirs once the app is built). */
  observe(observers: EngineObservers): void {
    this.observers = { ...this.observers, ...observers };
    this.observed.clear();
  }

  private deploymentState(d: Deployment): ModelState {
    const source = this.sources.get(d.identity);
    if (this.opened.has(d.identity) || source === undefined) return { state: 'ready' };
    return this.downloads.state(source);
  }

  private deploymentLoadOf(d: ChatDeployment): DeploymentLoad {
    const stats = this.created.get(d.identity)?.stats?.();
    // A capped deployment's line (max_concurrent) is part of its queue.
    const gate = this.gates.get(gateKey(d));
    return {
      deployment: d.label,
      engine: String(d.options['engine']),
      inFlight: stats?.inFlight ?? 0,
      waiting: (stats?.waiting ?? 0) + (gate?.waiting ?? 0),
      up: stats?.healthy ?? false,
    };
  }

  has(code: string): boolean {
    return this.deployments.has(code);
  }

  codes(): string[] {
    return [...this.deployments.keys()];
  }

  get(code: string): Promise<ChatEngine> | undefined {
    const engine = this.unobserved(code);
    const observers = this.observers;
    if (engine === undefined || (observers.tracer === undefined && observers.timings === undefined)) return engine;
    let observed = this.observed.get(code);
    if (observed === undefined) {
      const list = this.deployments.get(code)!;
      const provider = [...new Set(list.map((d) => String(d.options['engine'])))].join(',');
      observed = engine.then((e) => observeEngine(e, code, provider, observers));
      this.observed.set(code, observed);
      observed.catch(() => this.observed.delete(code));
    }
    return observed;
  }

  private unobserved(code: string): Promise<ChatEngine> | undefined {
    const list = this.deployments.get(code);
    if (!list) return undefined;
    for (const d of list) {
      const source = this.sources.get(d.identity);
      const blocker = source === undefined ? undefined : this.downloads.blocker(source, code);
      // A second download of a file on its way would race the first one for the same path.
      if (blocker) return Promise.reject(blocker);
    }
    if (list.length === 1 && list[0]!.cap.max_concurrent === undefined) return this.engine(list[0]!);
    return this.cached(this.pools, poolKey(list), async () =>
      createDeploymentPool(await Promise.all(list.map((d) => this.engine(d))), {
        gates: list.map((d) => this.gate(d)),
      }),
    );
  }

  /** A capped deployment's gate, one per deployment and cap, shared by every model code using it. */
  private gate(d: ChatDeployment): FairGate | undefined {
    if (d.cap.max_concurrent === undefined) return undefined;
    const key = gateKey(d);
    let gate = this.gates.get(key);
    if (gate === undefined) {
      gate = capGate(d.cap);
      if (gate !== undefined) this.gates.set(key, gate);
    }
    return gate;
  }

  /**
   * Load of the engines created so far, per model code, for metrics (engines that keep count).
   * Codes not used yet, or whose engine is still loading, are left out: nothing is loaded here.
   */
  load(): { model: string; inFlight: number; waiting: number; up: boolean }[] {
    const out: { model: string; inFlight: number; waiting: number; up: boolean }[] = [];
    for (const [code, list] of this.deployments) {
      const stats = this.created.get(poolKey(list))?.stats?.();
      if (stats) out.push({ model: code, inFlight: stats.inFlight, waiting: stats.waiting, up: stats.healthy });
    }
    return out;
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
    this.downloads.close();
    const all = await Promise.allSettled([...this.engines.values()]);
    await Promise.all(all.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
  }

  private engine(d: Deployment): Promise<ChatEngine> {
    return this.cached(this.engines, d.identity, async () => {
      const engine = await d.factory.create(d.options, this.context);
      this.opened.add(d.identity);
      return engine;
    });
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
      pending.then(
        (engine) => this.created.set(key, engine),
        () => map.delete(key),
      );
    }
    return pending;
  }
}
