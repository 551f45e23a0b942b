/**
 * The image-engine seam (docs/architecture.md, "Seams"): a prompt and a size in, image bytes out. Engines know their
 * backend's wire and nothing above it; the image service resizes, stores and serves the result and
 * never branches on which engine made it. Every engine passes test/contracts/image-engine.contract.ts.
 */

import type { CancelSignal } from '../../util/cancel-signal.js';

export type ImageQuality = 'hd' | 'standard';

export interface ImageSize {
  width: number;
  height: number;
}

export interface ImageRequest {
  prompt: string;
  negativePrompt?: string;
  size: ImageSize;
  quality: ImageQuality;
  /** Always set: engines cache identical jobs (ComfyUI answers a repeated workflow from its cache). */
  seed: number;
  /** The W3C trace context of this job when tracing is on, sent upstream as the `traceparent` header. */
  traceparent?: string | undefined;
}

export interface GeneratedImage {
  bytes: Buffer;
  /** `image/png`, `image/jpeg` or `image/webp`, from the bytes themselves. */
  mime: string;
  /** What the engine reported about the job (its own ids, steps, sampler, revised prompt...). */
  metadata: Record<string, unknown>;
}

export interface ImageJobHooks {
  /**
   * Called once the backend has accepted the job. A failure before it may be retried on another
   * deployment; after it, the job may have run (or still runs), so it is not.
   */
  started?(): void;
}

export interface ImageEngine {
  /**
   * Makes one image. Aborting `signal` cancels the job on the backend (interrupt, dequeue) and
   * rethrows the signal's reason. Failures are ApiErrors: 1234 for the backend, with a cause of
   * RequestRefusedByBackend when the backend refused this request rather than failed.
   */
  generate(request: ImageRequest, signal: CancelSignal, hooks?: ImageJobHooks): Promise<GeneratedImage>;
  close(): Promise<void>;
}
