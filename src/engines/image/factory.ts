import type { Static, TSchema } from '@sinclair/typebox';
import type { Fetcher } from '../../net/fetcher.js';
import type { EngineContext } from '../chat/factory.js';
import type { ImageEngine } from './types.js';

/** What image engines may need from the server. */
export interface ImageEngineContext {
  /** Folder of the configuration file: relative workflow paths resolve against it. */
  configDir: string;
  log: EngineContext['log'];
  /** Largest answer read from an engine (JSON with base64 images, or a fetched image). */
  maxImageBytes: number;
  /** Longest one job may take. */
  timeoutMs: number;
  /** For URLs an engine answers with on another host: every address checked (src/net). */
  outbound: Fetcher;
}

/** A kind of image engine: the schema of its deployment options and how to start one. */
export interface ImageEngineFactory {
  readonly schema: TSchema;
  create(options: unknown, context: ImageEngineContext): Promise<ImageEngine>;
}

export function defineImageEngine<S extends TSchema>(definition: {
  schema: S;
  create(options: Static<S>, context: ImageEngineContext): Promise<ImageEngine>;
}): ImageEngineFactory {
  return definition as unknown as ImageEngineFactory;
}
