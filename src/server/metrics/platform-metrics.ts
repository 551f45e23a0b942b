import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { SpendStats } from '../../services/billing/spend-stats.js';
import type { DeploymentLoad } from '../../services/chat/engine-directory.js';
import type { GenerationTimings } from '../../services/chat/observed-engine.js';
import type { UsageStats } from '../../services/usage/usage-recorder.js';
import { billingMetrics } from './billing-metrics.js';

/** What /metrics reads at scrape time rather than on every request. */
export interface MetricSources {
  openStreams(): number;
  /** Usage records waiting to be written, and what became of the others (services/usage/). */
  usage(): UsageStats;
  /** Per model code: requests generating and waiting, for engines that report it. */
  engineLoad?(): { model: string; inFlight: number; waiting: number; up: boolean }[];
  /** Per deployment (one engine, whichever codes share it): requests generating and waiting. */
  deploymentLoad?(): DeploymentLoad[];
  /** What the server depends on (the database): faults seen by kind, recoveries, and whether it is up. */
  dependencies?(): DependencyCounts[];
  /** Spend, refusals for money and expired reservations (services/billing/). */
  billing?(): { stats: SpendStats; currency: string };
}

export interface DependencyCounts {
  dependency: string;
  errors: Record<string, number>;
  reconnects: number;
  up: boolean;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** Time to first token: prompt evaluation and queueing, milliseconds to minutes. */
const FIRST_TOKEN = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80];
/** Time between tokens: from well under a millisecond (tiny models) to a slow CPU's second. */
const BETWEEN_TOKENS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 2.5];

/** The platform's Prometheus metrics, in a registry of their own (one per app). */
export class PlatformMetrics implements GenerationTimings {
  readonly registry = new Registry();
  private readonly firstTokenSeconds: Histogram<'model'>;
  private readonly betweenTokensSeconds: Histogram<'model'>;
  private readonly requests: Counter<'operation' | 'status' | 'code'>;
  private readonly duration: Histogram<'operation'>;
  private readonly tokens: Counter<'model' | 'direction'>;

  constructor(sources: MetricSources, options: { processMetrics: boolean }) {
    const registers = [this.registry];
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'gen_platform_' });
    this.requests = new Counter({
      name: 'gen_platform_requests_total',
      help: 'Requests answered, by operation, HTTP status and API error code (0 = none).',
      labelNames: ['operation', 'status', 'code'],
      registers,
    });
    this.duration = new Histogram({
      name: 'gen_platform_request_duration_seconds',
      help: 'Time from the request to the end of its response (a stream ends with its last event).',
      labelNames: ['operation'],
      buckets: SECONDS,
      registers,
    });
    this.tokens = new Counter({
      name: 'gen_platform_tokens_total',
      help: 'Tokens in (prompt) and out (completion), by model.',
      labelNames: ['model', 'direction'],
      registers,
    });
    this.firstTokenSeconds = new Histogram({
      name: 'gen_platform_time_to_first_token_seconds',
      help: 'Time from the engine call to the first token (text, reasoning or a tool call), by model.',
      labelNames: ['model'],
      buckets: FIRST_TOKEN,
      registers,
    });
    this.betweenTokensSeconds = new Histogram({
      name: 'gen_platform_time_between_tokens_seconds',
      help: 'Mean time between the tokens after the first, once per reply of more than one token, by model (time per output token).',
      labelNames: ['model'],
      buckets: BETWEEN_TOKENS,
      registers,
    });
    new Gauge({
      name: 'gen_platform_streams_open',
      help: 'Event streams being written.',
      registers,
      collect() {
        this.set(sources.openStreams());
      },
    });
    this.usageMetrics(sources.usage, registers);
    const load = sources.engineLoad;
    if (load) this.engineGauges(load, registers);
    const deployments = sources.deploymentLoad;
    if (deployments) this.deploymentGauges(deployments, registers);
    const dependencies = sources.dependencies;
    if (dependencies) this.dependencyMetrics(dependencies, registers);
    const billing = sources.billing;
    if (billing) billingMetrics(billing, registers);
  }

  firstToken(model: string, seconds: number): void {
    this.firstTokenSeconds.observe({ model }, seconds);
  }

  betweenTokens(model: string, seconds: number): void {
    this.betweenTokensSeconds.observe({ model }, seconds);
  }

  observe(operation: string, status: number, code: number, seconds: number): void {
    this.requests.inc({ operation, status, code });
    this.duration.observe({ operation }, seconds);
  }

  countTokens(model: string, promptTokens: number, completionTokens: number): void {
    if (promptTokens > 0) this.tokens.inc({ model, direction: 'in' }, promptTokens);
    if (completionTokens > 0) this.tokens.inc({ model, direction: 'out' }, completionTokens);
  }

  private usageMetrics(usage: () => UsageStats, registers: Registry[]): void {
    new Gauge({
      name: 'gen_platform_usage_records_queued',
      help: 'Usage records in memory waiting to be written to the store (each is already in the usage journal).',
      registers,
      collect() {
        this.set(usage().queued);
      },
    });
    new Gauge({
      name: 'gen_platform_usage_records_journal_only',
      help: 'Usage records past `usage.max_queued`, kept only in the usage journal until the store takes them.',
      registers,
      collect() {
        this.set(usage().journalOnly);
      },
    });
    // Counters the recorder keeps itself: each scrape sets them to its figures.
    const counter = (name: string, help: string, pick: (s: UsageStats) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(pick(usage()));
        },
      });
    counter(
      'gen_platform_usage_write_failures_total',
      'Attempts to write a batch of usage records to the store that failed (each is tried again, with a growing wait).',
      (s) => s.writeFailures,
    );
    counter(
      'gen_platform_usage_journal_failures_total',
      'Usage records whose journal write failed: kept in memory only, and their replies answered 1305.',
      (s) => s.journalFailures,
    );
    counter(
      'gen_platform_usage_records_refused_total',
      'Usage records the store refused for good while it took others (a value out of range): set aside in a file beside the usage journal.',
      (s) => s.setAside,
    );
    counter(
      'gen_platform_usage_records_replayed_total',
      'Usage records written to the store from a journal file (past the memory cap, or left by a process that died).',
      (s) => s.replayed,
    );
  }

  private engineGauges(load: NonNullable<MetricSources['engineLoad']>, registers: Registry[]): void {
    const gauge = (name: string, help: string, pick: (l: ReturnType<typeof load>[number]) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['model'],
        registers,
        collect() {
          this.reset();
          for (const l of load()) this.set({ model: l.model }, pick(l));
        },
      });
    gauge('gen_platform_engine_in_flight', 'Requests generating on the engine of a model.', (l) => l.inFlight);
    gauge('gen_platform_engine_waiting', 'Requests queued for the engine of a model.', (l) => l.waiting);
    gauge('gen_platform_engine_up', '1 when the engine of a model is loaded and serving.', (l) => (l.up ? 1 : 0));
  }

  /** Counted by the dependency itself (stores/dependency-status.ts) and read at scrape time. */
  private dependencyMetrics(read: () => DependencyCounts[], registers: Registry[]): void {
    new Counter({
      name: 'gen_platform_dependency_errors_total',
      help: 'Faults met by calls to a dependency, by kind: unavailable (unreachable, connection lost), full (disk full), busy (lock, serialization failure).',
      labelNames: ['dependency', 'kind'],
      registers,
      collect() {
        this.reset();
        for (const d of read()) {
          for (const [kind, n] of Object.entries(d.errors)) this.inc({ dependency: d.dependency, kind }, n);
        }
      },
    });
    new Counter({
      name: 'gen_platform_dependency_reconnects_total',
      help: 'Times a dependency answered again after a fault had marked it down or full.',
      labelNames: ['dependency'],
      registers,
      collect() {
        this.reset();
        for (const d of read()) this.inc({ dependency: d.dependency }, d.reconnects);
      },
    });
    new Gauge({
      name: 'gen_platform_dependency_up',
      help: '1 while a dependency is up as its last call found it, 0 while down or full.',
      labelNames: ['dependency'],
      registers,
      collect() {
        this.reset();
        for (const d of read()) this.set({ dependency: d.dependency }, d.up ? 1 : 0);
      },
    });
  }

  private deploymentGauges(load: () => DeploymentLoad[], registers: Registry[]): void {
    const gauge = (name: string, help: string, pick: (l: DeploymentLoad) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['deployment', 'engine'],
        registers,
        collect() {
          this.reset();
          for (const l of load()) this.set({ deployment: l.deployment, engine: l.engine }, pick(l));
        },
      });
    gauge(
      'gen_platform_deployment_in_flight',
      'Requests generating on a deployment (`gen-4.6[0]`: models.gen-4.6.deployments[0]; `embedded`: the default model).',
      (l) => l.inFlight,
    );
    gauge(
      'gen_platform_deployment_queue_depth',
      'Requests waiting for a slot or a connection of a deployment.',
      (l) => l.waiting,
    );
  }
}
