import type { ChatEngine } from './types.js';

export interface Deployment<E = ChatEngine> {
  readonly engine: E;
  readonly position: number;
  inFlight: number;
  /** Until when (ms since epoch) the deployment is skipped after a failure; 0 when healthy. */
  unhealthyUntil: number;
}

/**
 * Chooses deployments: the fewest requests in flight among the healthy ones, ties taken in turn.
 * When every untried deployment is cooling down, the one that recovers first is tried rather than
 * failing outright, so a pool whose every member failed once can still serve.
 */
export class DeploymentPicker<E = ChatEngine> {
  readonly deployments: Deployment<E>[];
  private cursor = 0;

  constructor(
    engines: E[],
    private readonly cooldownMs: number,
    private readonly now: () => number,
  ) {
    this.deployments = engines.map((engine, position) => ({ engine, position, inFlight: 0, unhealthyUntil: 0 }));
  }

  /** `isFull`: deployments at their concurrency cap, taken only when every healthy one is. */
  pick(tried: ReadonlySet<Deployment<E>>, isFull?: (d: Deployment<E>) => boolean): Deployment<E> | undefined {
    const now = this.now();
    const count = this.deployments.length;
    let best: Deployment<E> | undefined;
    let busy: Deployment<E> | undefined;
    let fallback: Deployment<E> | undefined;
    for (let step = 0; step < count; step++) {
      const deployment = this.deployments[(this.cursor + step) % count]!;
      if (tried.has(deployment)) continue;
      if (deployment.unhealthyUntil > now) {
        if (fallback === undefined || deployment.unhealthyUntil < fallback.unhealthyUntil) fallback = deployment;
        continue;
      }
      if (isFull?.(deployment)) {
        if (busy === undefined || deployment.inFlight < busy.inFlight) busy = deployment;
        continue;
      }
      if (best === undefined || deployment.inFlight < best.inFlight) best = deployment;
    }
    const chosen = best ?? busy ?? fallback;
    if (chosen !== undefined) this.cursor = (chosen.position + 1) % count;
    return chosen;
  }

  markUnhealthy(deployment: Deployment<E>): void {
    deployment.unhealthyUntil = this.now() + this.cooldownMs;
  }

  markHealthy(deployment: Deployment<E>): void {
    deployment.unhealthyUntil = 0;
  }
}
