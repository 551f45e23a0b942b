import type { Static, TSchema } from '@sinclair/typebox';
import type { CancelSignal } from '../../util/cancel-signal.js';
import type { ChatEngine } from './types.js';

/** What engines may need from the server: where to keep downloaded models, how to log. */
export interface EngineContext {
  modelsDir: string;
  /** Folder of the configuration file: relative model paths resolve against it. */
  configDir: string;
  /** CPU threads to use when a deployment does not say. */
  defaultThreads: number;
  /** Prompts that may wait for a deployment's tokenizer thread (`tokenizer.thread_queue_size`). */
  tokenizerQueueSize: number;
  /** Bytes of prompt states an embedded deployment keeps by default (`embedded.prompt_cache_bytes`); 0: none. */
  promptCacheBytes: number;
  /** Where managed llama-server deployments find their binary (`llama_server`); unset: they must name one. */
  llamaServer?: { binary?: string | undefined; cacheDir?: string | undefined } | undefined;
  log: {
    info(message: string): void;
    error(details: Record<string, unknown>, message: string): void;
    warn(details: Record<string, unknown>, message: string): void;
    /** pino's: a failure that is retried carries its stack only at debug level (util/failure-fields.ts). */
    isLevelEnabled?(level: string): boolean;
  };
}

/** Whether a model file can be opened: on disk and valid, not there (yet), or there but unusable. */
export type ModelFileStatus = { status: 'usable' } | { status: 'missing' | 'invalid'; reason: string };

/**
 * A model file a deployment needs on disk before it can open, as its engine declares it: the server
 * checks it at start-up and downloads it in the background without knowing which engine it serves.
 */
export interface ModelSource {
  /** Equal for deployments that need the same file, so that they share one download. */
  readonly id: string;
  /** What the configuration names: a path, `hf:user/repo:quant`, or a URL. */
  readonly reference: string;
  /** Whether `fetch` downloads it (a remote reference) rather than expecting it on disk. */
  readonly remote: boolean;
  /** Reads the file's header, never the network. */
  check(): Promise<ModelFileStatus>;
  /** Downloads the file (remote sources only), reporting bytes as they arrive. */
  fetch(onProgress: (done: number, total: number) => void, signal: CancelSignal): Promise<void>;
}

/** A kind of chat engine: the schema of its deployment options and how to start one. */
export interface ChatEngineFactory {
  readonly schema: TSchema;
  /** Options already validated against `schema`. */
  create(options: unknown, context: EngineContext): Promise<ChatEngine>;
  /** Fetches what the deployment needs ahead of time (`gen-platform models pull`), if anything. */
  prepare?(options: unknown, context: EngineContext): Promise<string | undefined>;
  /** The model file the deployment opens, for engines that open one (none for upstream servers). */
  source?(options: unknown, context: EngineContext): ModelSource | undefined;
  /**
   * What must be in place before the server serves the deployment, beyond its model file (a program
   * it runs): checked at start-up, throws a ConfigError saying what to do.
   */
  preflight?(options: unknown, context: EngineContext): Promise<void>;
}

export function defineChatEngine<S extends TSchema>(definition: {
  schema: S;
  create(options: Static<S>, context: EngineContext): Promise<ChatEngine>;
  prepare?(options: Static<S>, context: EngineContext): Promise<string | undefined>;
  source?(options: Static<S>, context: EngineContext): ModelSource | undefined;
  preflight?(options: Static<S>, context: EngineContext): Promise<void>;
}): ChatEngineFactory {
  return definition as unknown as ChatEngineFactory;
}
