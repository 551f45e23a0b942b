import type { DependencyReport } from '../../stores/dependency-status.js';
import type { Store } from '../../stores/types.js';
import type { EngineDirectory } from '../chat/engine-directory.js';
import type { Limiter } from '../limits/limiter.js';

export interface HealthReport {
  /** `ok` when every dependency is up, else `degraded`: the process itself answers either way. */
  status: 'ok' | 'degraded';
  /** Whether this process can serve requests that need the database (the readiness answer). */
  ready: boolean;
  dependencies: {
    database: DependencyReport & { backend?: string };
    engines: { model: string; up: boolean }[];
    /** The limiter's backend, under its own name (e.g. `redis`), when it has one. */
    [limiterBackend: string]: unknown;
  };
}

export interface HealthCheckOptions {
  store: Store;
  limiter: Limiter;
  engines?: EngineDirectory | undefined;
  /** Longest wait for the database's answer to a probe. */
  probeMs: number;
  /** A probe's answer is reused this long: health endpoints are unauthenticated and polled. */
  cacheMs?: number;
}

/**
 * The state of what the server depends on, for `GET /health` and `GET /health/ready`. The database
 * is probed (one round trip, at most one at a time and one per `cacheMs`), so that its state is
 * current even when no request has needed it since it came back or went away.
 */
export class HealthCheck {
  private probing: Promise<void> | undefined;
  private probedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly o: HealthCheckOptions) {}

  async report(): Promise<HealthReport> {
    await this.probe();
    const { status } = this.o.store;
    const database = { ...status.current, ...(status.backend ? { backend: status.backend } : {}) };
    const limiter = this.o.limiter.backend?.();
    const engines = (this.o.engines?.load() ?? []).map((e) => ({ model: e.model, up: e.up }));
    const ready = database.state === 'up';
    const allUp = ready && limiter?.up !== false;
    return {
      status: allUp ? 'ok' : 'degraded',
      ready,
      dependencies: {
        database,
        ...(limiter ? { [limiter.name]: { state: limiter.up ? 'up' : 'down' } } : {}),
        engines,
      },
    };
  }

  private probe(): Promise<void> {
    if (this.probing) return this.probing;
    if (performance.now() - this.probedAt < (this.o.cacheMs ?? 1000)) return Promise.resolve();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, this.o.probeMs).unref());
    // The store records the outcome in its status; a probe that fails says so there.
    const ping = this.o.store.ping().catch(() => undefined);
    this.probing = Promise.race([ping, timeout]).finally(() => {
      this.probing = undefined;
      this.probedAt = performance.now();
    });
    return this.probing;
  }
}
