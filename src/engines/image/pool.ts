import { ApiError } from '../../errors/api-error.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import { isRefusedByBackend } from '../chat/pool-errors.js';
import { type Deployment, DeploymentPicker } from '../chat/pool-health.js';
import type { GeneratedImage, ImageEngine, ImageJobHooks, ImageRequest } from './types.js';

export interface ImagePoolOptions {
  /** How long a deployment is skipped after a backend failure. Default 10 s. */
  cooldownMs?: number;
  now?: () => number;
}

const isDeploymentFailure = (err: unknown): boolean =>
  err instanceof ApiError && err.code === 1234 && !isRefusedByBackend(err);
const isRetryable = (err: unknown): boolean => err instanceof ApiError && err.retryable && !isRefusedByBackend(err);

/**
 * Several deployments of one image model behind one ImageEngine: the least busy healthy one takes
 * the job; a failure moves the job to another only while the engine had not started it (the
 * engine's `started` hook), so a job never runs twice. Never looks at engine kinds.
 */
export function createImagePool(engines: ImageEngine[], options: ImagePoolOptions = {}): ImageEngine {
  if (engines.length === 0) throw new Error('createImagePool needs at least one engine');
  if (engines.length === 1) return engines[0]!;
  const picker = new DeploymentPicker<ImageEngine>(engines, options.cooldownMs ?? 10_000, options.now ?? Date.now);

  async function generate(request: ImageRequest, signal: CancelSignal, hooks?: ImageJobHooks): Promise<GeneratedImage> {
    const tried = new Set<Deployment<ImageEngine>>();
    let lastError: unknown;
    for (;;) {
      const deployment = picker.pick(tried);
      if (deployment === undefined) throw lastError;
      tried.add(deployment);
      deployment.inFlight++;
      let started = false;
      const relay: ImageJobHooks = {
        started() {
          started = true;
          hooks?.started?.();
        },
      };
      try {
        const image = await deployment.engine.generate(request, signal, relay);
        picker.markHealthy(deployment);
        return image;
      } catch (err) {
        if (signal.aborted) throw err;
        if (isDeploymentFailure(err)) picker.markUnhealthy(deployment);
        if (started || !isRetryable(err)) throw err;
        lastError = err;
      } finally {
        deployment.inFlight--;
      }
    }
  }

  return {
    generate,
    close: async () => {
      await Promise.all(picker.deployments.map((d) => d.engine.close()));
    },
  };
}
