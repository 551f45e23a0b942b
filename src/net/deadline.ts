import type { CancelSignal } from '../util/cancel-signal.js';

/**
 * One clock for a whole fetch and what follows it (redirects, decoding, rendering, extraction),
 * merged with the caller's cancellation, so every step can tell "our timeout fired" from "the
 * client went away".
 */
export interface Deadline {
  readonly signal: AbortSignal;
  readonly seconds: number;
  timedOut(): boolean;
  remainingMs(): number;
  dispose(): void;
}

export function createDeadline(seconds: number, outer?: CancelSignal): Deadline {
  const controller = new AbortController();
  const endsAt = Date.now() + seconds * 1000;
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`timed out after ${seconds} s`));
  }, seconds * 1000);
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    seconds,
    timedOut: () => expired,
    remainingMs: () => Math.max(0, endsAt - Date.now()),
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    },
  };
}
