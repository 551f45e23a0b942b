import { ApiError } from '../../errors/api-error.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import type { FairGate } from '../../util/fair-gate.js';
import { isRefusedByBackend } from './pool-errors.js';
import { type Deployment, DeploymentPicker } from './pool-health.js';
import type {
  ChatEngine,
  ChatEngineCapabilities,
  ChatMessage,
  ChatRequest,
  ChatStreamPart,
  FunctionTool,
} from './types.js';

export interface DeploymentPoolOptions {
  /** How long a deployment is skipped after a backend failure. Default 10 s. */
  cooldownMs?: number;
  /** Clock, for tests. */
  now?: () => number;
  /**
   * Whether an error means the deployment itself is failing (skip it for the cool-down). Default: an
   * ApiError 1234 (connection failure, 5xx, 429 or a broken stream) not caused by RequestRefusedByBackend.
   */
  isDeploymentFailure?: (err: unknown) => boolean;
  /**
   * Whether the request may go to another deployment. Default: a retryable ApiError (1234, 1305) not
   * caused by RequestRefusedByBackend.
   */
  isRetryable?: (err: unknown) => boolean;
  /**
   * Each deployment's concurrency cap (in the order of the engines; undefined: none), shared with
   * every other pool that sends to the same deployment. A request that finds every deployment at
   * its cap waits in the least busy one's line, served key by key (ChatRequest.tenant).
   */
  gates?: readonly (FairGate | undefined)[];
}

const defaultIsFailure = (err: unknown): boolean =>
  err instanceof ApiError && err.code === 1234 && !isRefusedByBackend(err);
const defaultIsRetryable = (err: unknown): boolean =>
  err instanceof ApiError && err.retryable && !isRefusedByBackend(err);

/** The pool can promise only what every deployment can do. */
function commonCapabilities(engines: ChatEngine[]): ChatEngineCapabilities {
  const all = engines.map((e) => e.capabilities);
  return {
    tools: all.every((c) => c.tools),
    thinking: all.every((c) => c.thinking),
    json: all.every((c) => c.json),
    vision: all.every((c) => c.vision),
    maxContext: Math.min(...all.map((c) => c.maxContext)),
    maxOutput: Math.min(...all.map((c) => c.maxOutput)),
  };
}

/**
 * Several deployments of one model behind one ChatEngine. A request goes to the least busy healthy
 * deployment and moves to another only while nothing has been yielded; once a part is out, the
 * client has seen this deployment's reply and a failure propagates. Never looks at engine kinds.
 */
export function createDeploymentPool(engines: ChatEngine[], options: DeploymentPoolOptions = {}): ChatEngine {
  if (engines.length === 0) throw new Error('createDeploymentPool needs at least one engine');
  // With one deployment there is nowhere to fail over to, and a cooling-down sole deployment is tried
  // anyway: the engine itself behaves the same, without a generator layer on every part.
  const gates = options.gates ?? [];
  if (engines.length === 1 && gates[0] === undefined) return engines[0]!;
  const picker = new DeploymentPicker(engines, options.cooldownMs ?? 10_000, options.now ?? Date.now);
  const isFailure = options.isDeploymentFailure ?? defaultIsFailure;
  const isRetryable = options.isRetryable ?? defaultIsRetryable;
  const isFull = gates.some((g) => g !== undefined)
    ? (d: Deployment) => gates[d.position]?.hasRoom === false
    : undefined;

  function next(tried: Set<Deployment>, lastError: unknown): Deployment {
    const deployment = picker.pick(tried, isFull);
    if (deployment === undefined) throw lastError;
    tried.add(deployment);
    return deployment;
  }

  /** Records a failure; true when another deployment may take the request. */
  function failed(deployment: Deployment, err: unknown, signal: CancelSignal | undefined): boolean {
    if (signal?.aborted) return false;
    if (isFailure(err)) picker.markUnhealthy(deployment);
    return isRetryable(err);
  }

  async function* generate(request: ChatRequest, signal: CancelSignal): AsyncGenerator<ChatStreamPart> {
    const tried = new Set<Deployment>();
    let lastError: unknown;
    for (;;) {
      const deployment = next(tried, lastError);
      const gate = gates[deployment.position];
      deployment.inFlight++;
      if (gate !== undefined) {
        try {
          await gate.enter(request.tenant ?? '', signal);
        } catch (err) {
          deployment.inFlight--;
          // A client that left while waiting ends quietly, as when it leaves during generation.
          if (signal.aborted && !(err instanceof ApiError)) return;
          throw err;
        }
      }
      let iterator: AsyncIterator<ChatStreamPart> | undefined;
      let first: IteratorResult<ChatStreamPart>;
      try {
        iterator = deployment.engine.generate(request, signal)[Symbol.asyncIterator]();
        first = await iterator.next();
      } catch (err) {
        deployment.inFlight--;
        gate?.leave();
        if (!failed(deployment, err, signal)) throw err;
        lastError = err;
        continue;
      }
      picker.markHealthy(deployment);
      try {
        if (first.done) return;
        yield first.value;
        for (let result = await iterator.next(); !result.done; result = await iterator.next()) yield result.value;
        return;
      } catch (err) {
        failed(deployment, err, signal);
        throw err;
      } finally {
        deployment.inFlight--;
        try {
          // The consumer may stop early: let the engine release its upstream request.
          await iterator.return?.();
        } finally {
          gate?.leave();
        }
      }
    }
  }

  async function countTokens(messages: ChatMessage[], tools: FunctionTool[], signal?: CancelSignal): Promise<number> {
    const tried = new Set<Deployment>();
    let lastError: unknown;
    for (;;) {
      const deployment = next(tried, lastError);
      try {
        return await deployment.engine.countTokens(messages, tools, signal);
      } catch (err) {
        if (!failed(deployment, err, undefined)) throw err;
        lastError = err;
      }
    }
  }

  return {
    capabilities: commonCapabilities(engines),
    generate,
    countTokens,
    stats: () => {
      const now = (options.now ?? Date.now)();
      let waiting = 0;
      for (const d of picker.deployments)
        waiting += (d.engine.stats?.().waiting ?? 0) + (gates[d.position]?.waiting ?? 0);
      return {
        inFlight: picker.deployments.reduce((n, d) => n + d.inFlight, 0),
        waiting,
        healthy: picker.deployments.some((d) => d.unhealthyUntil <= now),
      };
    },
    close: async () => {
      await Promise.all(picker.deployments.map((d) => d.engine.close()));
    },
  };
}
