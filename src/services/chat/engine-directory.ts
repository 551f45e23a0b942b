import path from 'node:path';
import type { Config } from '../../config/schema.js';
import { capGate } from '../../engines/chat/deployment-cap.js';
import type { EngineContext } from '../../engines/chat/factory.js';
import { createDeploymentPool } from '../../engines/chat/pool.js';
import type { ChatEngine } from '../../engines/chat/types.js';
import { EngineCache } from '../../engines/engine-cache.js';
import { upstreamFailure } from '../../errors/errors.js';
import type { FairGate } from '../../util/fair-gate.js';
import { ModelDownloads, type StartOptions } from '../models/model-downloads.js';
import { furthestBehind, type ModelState } from '../models/model-state.js';
import { withoutCredentials } from '../models/without-credentials.js';
import type { ChatDeployment } from './chat-deployments.js';
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
    tokenizerQueueSize: config.tokenizer.thread_queue_size,
    promptCacheBytes: config.embedded.prompt_cache_bytes,
    llamaServer: { binary: config.llama_server.binary, cacheDir: config.llama_server.cache_dir },
    log,
  };
}

/**
 * Model code → engine, created on first use so that the server starts at once and a model that
 * cannot load (no network for a download, a bad file) fails only the calls that need it.
 */
export class EngineDirectory {
  /** One engine per deployment identity, one pool per set of deployments (poolKey). */
  private readonly engines = new EngineCache<ChatEngine>();
  private readonly pools = new EngineCache<ChatEngine>();
  /** Identities of the deployments whose engine has opened. */
  private readonly opened = new Set<string>();
  /** Deployment identity → id of the model file it opens (see ModelDownloads). */
  private readonly sources = new Map<string, string>();
  private readonly downloads: ModelDownloads;
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

  /**
   * Start-up: fails when a deployment lacks what its engine runs (preflight), reports model files
   * that cannot be served and, unless lazy, downloads the missing ones.
   */
  async warmUp(options: StartOptions): Promise<void> {
    const seen = new Set<string>();
    for (const list of this.deployments.values()) {
      for (const d of list) {
        if (seen.has(d.identity)) continue;
        seen.add(d.identity);
        await d.factory.preflight?.(d.options, this.context);
      }
    }
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
        if (seen.has(d.identity) || this.engines.created(d.identity) === undefined) continue;
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

  private deploymentState(d: ChatDeployment): ModelState {
    const source = this.sources.get(d.identity);
    if (this.opened.has(d.identity) || source === undefined) return { state: 'ready' };
    return this.downloads.state(source);
  }

  private deploymentLoadOf(d: ChatDeployment): DeploymentLoad {
    const stats = this.engines.created(d.identity)?.stats?.();
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
    return this.pools.get(poolKey(list), async () =>
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
      const key = poolKey(list);
      const stats = (this.pools.created(key) ?? this.engines.created(key))?.stats?.();
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

  /** Closes the engines; a pool holds nothing of its own beyond them. */
  async close(): Promise<void> {
    this.downloads.close();
    await this.engines.close();
  }

  private engine(d: ChatDeployment): Promise<ChatEngine> {
    return this.engines.get(d.identity, async () => {
      let engine: ChatEngine;
      try {
        engine = await d.factory.create(d.options, this.context);
      } catch (err) {
        // The cause may name files, hosts or what a download server answered: the log has it, and
        // the caller (a key holder) learns only that the model cannot be served.
        this.context.log.warn(
          { err, deployment: d.label, target: targetOf(d.options) },
          `Deployment ${d.label} could not be opened: ${err instanceof Error ? err.message : String(err)}`,
        );
        throw upstreamFailure(
          "The model cannot be served right now: its deployment could not be opened (the server's log says why)",
          {
            cause: err,
          },
        );
      }
      this.opened.add(d.identity);
      return engine;
    });
  }
}
