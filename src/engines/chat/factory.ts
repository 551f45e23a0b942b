import type { Static, TSchema } from '@sinclair/typebox';
import type { ChatEngine } from './types.js';

/** What engines may need from the server: where to keep downloaded models, how to log. */
export interface EngineContext {
  modelsDir: string;
  /** Folder of the configuration file: relative model paths resolve against it. */
  configDir: string;
  /** CPU threads to use when a deployment does not say. */
  defaultThreads: number;
  log: {
    info(message: string): void;
    error(details: Record<string, unknown>, message: string): void;
    warn(details: Record<string, unknown>, message: string): void;
  };
}

/** A kind of chat engine: the schema of its deployment options and how to start one. */
export interface ChatEngineFactory {
  readonly schema: TSchema;
  /** Options already validated against `schema`. */
  create(options: unknown, context: EngineContext): Promise<ChatEngine>;
  /** Fetches what the deployment needs ahead of time (`gen-platform models pull`), if anything. */
  prepare?(options: unknown, context: EngineContext): Promise<string | undefined>;
}

export function defineChatEngine<S extends TSchema>(definition: {
  schema: S;
  create(options: Static<S>, context: EngineContext): Promise<ChatEngine>;
  prepare?(options: Static<S>, context: EngineContext): Promise<string | undefined>;
}): ChatEngineFactory {
  return definition as unknown as ChatEngineFactory;
}
