import { type StoreFault, storeFault } from './faults.js';

export type DependencyState = 'up' | 'down' | 'full';

export interface DependencyReport {
  state: DependencyState;
  /** What the last fault was ("connection refused", "disk full"), while not up. */
  cause?: string;
  /** Since when (Unix ms) the dependency is in this state. */
  since: number;
}

/**
 * One dependency's state as its own calls saw it, for /health, /health/ready and /metrics: a
 * fault marks it down (or full), the next success marks it up and counts a reconnect. Counting
 * happens here, beside the calls, so nothing above the store needs to know the driver.
 */
export class DependencyStatus {
  private report: DependencyReport = { state: 'up', since: Date.now() };
  /** Faults seen, by kind (dependency errors in /metrics). */
  readonly errors: Record<StoreFault['kind'], number> = { unavailable: 0, full: 0, busy: 0 };
  /** Times the dependency came back after being down. */
  reconnects = 0;

  /** `name`: what it is to the server ("database"); `backend`: what serves it, for /health. */
  constructor(
    readonly name: string,
    readonly backend?: string,
  ) {}

  get current(): DependencyReport {
    return this.report;
  }

  get up(): boolean {
    return this.report.state === 'up';
  }

  /** Records an error if it is a fault; returns the fault (undefined for any other error). */
  failed(err: unknown): StoreFault | undefined {
    const fault = storeFault(err);
    if (!fault) return undefined;
    this.errors[fault.kind]++;
    // A busy moment (a lock, a serialization failure) says nothing about reachability.
    if (fault.kind === 'busy') return fault;
    const state = fault.kind === 'full' ? 'full' : 'down';
    if (this.report.state !== state || this.report.cause !== fault.cause) {
      this.report = { state, cause: fault.cause, since: this.report.state === state ? this.report.since : Date.now() };
    }
    return fault;
  }

  /** A call worked: a lost server is back with any answer, a full disk only with a write that worked. */
  succeeded(wrote = true): void {
    if (this.report.state === 'up' || (this.report.state === 'full' && !wrote)) return;
    this.reconnects++;
    this.report = { state: 'up', since: Date.now() };
  }
}
