import { setTimeout as delay } from 'node:timers/promises';
import { ApiError } from '../../../errors/api-error.js';
import type { CancelSignal } from '../../../util/cancel-signal.js';
import { upstreamFailure } from '../../upstream-errors.js';
import { createOpenAICompatibleEngine, type OpenAICompatibleOptions } from '../openai-compatible/index.js';
import type { ChatEngine, ChatEngineCapabilities, ChatEngineStats, ChatRequest, ChatStreamPart } from '../types.js';
import { type LlamaServerSettings, llamaServerArgs } from './args.js';
import { type ChildRun, describeExit } from './child.js';
import { childKey } from './key-file.js';
import { type CapabilityOverrides, capabilitiesFromProps, isOneToken, THINK_PROBE } from './props.js';
import { type Instance, Supervisor } from './supervisor.js';

/** The upstream engine's options that a managed deployment sets (its bounds); the rest follow from the child. */
export type UpstreamSettings = Pick<OpenAICompatibleOptions, 'timeouts' | 'limits' | 'connections' | 'extraBody'>;

export interface LlamaServerEngineOptions {
  binary: string;
  settings: LlamaServerSettings;
  overrides: CapabilityOverrides;
  upstream: UpstreamSettings;
  /** Longest wait for a start (model loading included). Default 120 s. */
  startTimeoutMs?: number;
  /** Between SIGTERM and SIGKILL on close. Default 5 s. */
  stopGraceMs?: number;
  /** Restart delays while it keeps failing. Default 500 ms doubling to 30 s. */
  backoff?: { firstMs: number; maxMs: number };
  log: {
    info(message: string): void;
    warn(details: Record<string, unknown>, message: string): void;
    error(details: Record<string, unknown>, message: string): void;
  };
  /** How logs and errors name it. */
  label: string;
}

export interface LlamaServerEngine extends ChatEngine {
  /** The serving child's pid (tests, logs). */
  readonly pid: number | undefined;
  stats(): ChatEngineStats;
}

/** The code of an upstream failure: the one a dead child causes. */
const BACKEND_FAILURE = 1234;

/** How long a request waits to see whether a failed call coincided with the child's exit. */
const EXIT_NOTICE_MS = 200;

/**
 * llama.cpp's own server as a managed engine: a llama-server child on the deployment's GGUF, on a
 * loopback port, talked to through the OpenAI-compatible engine (its bounds, tokenizer, tool calls
 * and reasoning as for any upstream), restarted when it dies, stopped on close. Requests that the
 * child's death cut short fail with an upstream error naming it; later ones wait for the restart.
 */
export async function createLlamaServerEngine(o: LlamaServerEngineOptions): Promise<LlamaServerEngine> {
  const key = await childKey();
  let capabilities: ChatEngineCapabilities | undefined;
  const connect = async (run: ChildRun): Promise<ChatEngine> => {
    if (capabilities === undefined) {
      const props = await run.json('/props', key.value);
      const thinkToken =
        o.overrides.thinking === undefined && isOneToken(await run.json('/tokenize', key.value, THINK_PROBE));
      capabilities = capabilitiesFromProps(props, o.settings.contextSize, o.overrides, thinkToken);
    }
    return createOpenAICompatibleEngine({
      ...o.upstream,
      baseUrl: `${run.url}/v1`,
      apiKey: key.value,
      model: o.settings.alias,
      capabilities,
      tokenizeUrl: `${run.url}/tokenize`,
      tokenizerApi: 'llama-server',
      logger: o.log,
    });
  };
  const supervisor = new Supervisor<ChatEngine>({
    binary: o.binary,
    args: (port) => llamaServerArgs(o.settings, port, key.file),
    startTimeoutMs: o.startTimeoutMs ?? 120_000,
    stopGraceMs: o.stopGraceMs ?? 5_000,
    backoff: o.backoff ?? { firstMs: 500, maxMs: 30_000 },
    stableMs: 10_000,
    connect,
    dispose: (engine) => engine.close(),
    log: o.log,
    label: o.label,
  });
  try {
    await supervisor.start();
  } catch (err) {
    await key.remove();
    throw err;
  }
  return new ManagedEngine(capabilities!, supervisor, { label: o.label, logger: o.log }, key.remove);
}

class ManagedEngine implements LlamaServerEngine {
  constructor(
    readonly capabilities: ChatEngineCapabilities,
    private readonly supervisor: Supervisor<ChatEngine>,
    private readonly upstream: { label: string; logger: LlamaServerEngineOptions['log'] },
    private readonly removeKey: () => Promise<void>,
  ) {}

  get pid(): number | undefined {
    return this.supervisor.pid;
  }

  /** The instance to call; undefined when `signal` aborted while a start was awaited. */
  private async instance(signal?: CancelSignal): Promise<Instance<ChatEngine> | undefined> {
    const current = this.supervisor.current();
    if ('run' in current) return current;
    if (current instanceof Promise) {
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<undefined>((resolve) => {
        onAbort = () => resolve(undefined);
        signal?.addEventListener('abort', onAbort);
      });
      try {
        return await Promise.race([current, aborted]);
      } catch (err) {
        throw upstreamFailure(this.upstream, 'llama-server could not be restarted', {}, err);
      } finally {
        if (onAbort) signal?.removeEventListener('abort', onAbort);
      }
    }
    const inMs = Math.max(0, current.retryAt - Date.now());
    throw upstreamFailure(
      this.upstream,
      `llama-server is not serving (${current.reason}); it is started again in ${Math.ceil(inMs / 1000)} s`,
      {},
    );
  }

  /**
   * The error for a call that failed: one naming the child's exit when that is what cut it short.
   * Refusals the server answered (a prompt too long, a bad request) and the client's own abort are
   * passed on at once; only a backend failure waits a moment for news of the child.
   */
  private async failure(instance: Instance<ChatEngine>, err: unknown, signal?: CancelSignal): Promise<unknown> {
    if (signal?.aborted || (err instanceof ApiError && err.code !== BACKEND_FAILURE)) return err;
    const exited = await Promise.race([instance.run.exited, delay(EXIT_NOTICE_MS, undefined, { ref: false })]);
    if (exited === undefined) return err;
    return upstreamFailure(
      this.upstream,
      `llama-server ${describeExit(exited)} during the request; it is being restarted`,
      { exit: exited },
      err,
    );
  }

  async *generate(request: ChatRequest, signal: CancelSignal): AsyncGenerator<ChatStreamPart> {
    if (signal.aborted) return;
    const instance = await this.instance(signal);
    if (instance === undefined) return;
    try {
      yield* instance.value.generate(request, signal);
    } catch (err) {
      throw await this.failure(instance, err, signal);
    }
  }

  async countTokens(...args: Parameters<ChatEngine['countTokens']>): Promise<number> {
    const signal = args[2];
    const instance = await this.instance(signal);
    if (instance === undefined) throw signal?.reason;
    try {
      return await instance.value.countTokens(...args);
    } catch (err) {
      throw await this.failure(instance, err, signal);
    }
  }

  stats(): ChatEngineStats {
    const current = this.supervisor.current();
    const inner = 'run' in current ? current.value.stats?.() : undefined;
    return { inFlight: inner?.inFlight ?? 0, waiting: inner?.waiting ?? 0, healthy: this.supervisor.healthy };
  }

  async close(): Promise<void> {
    await this.supervisor.close();
    await this.removeKey();
  }
}
