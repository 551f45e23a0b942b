export type CancelListener = (() => void) | { handleEvent(): void };

/**
 * The one cancellation type at every seam (chat and image engines, the operation context): the
 * part of AbortSignal that engines and services call. An AbortSignal is one, so is a RequestCancel,
 * which the edge makes per request because an AbortSignal with a listener costs about 8 µs on Node
 * 20 where this costs 0.05 (docs/architecture.md, "One cancellation type"). Code that hands the signal to an API
 * that wants a real AbortSignal (`fetch`, `timers/promises`, `AbortSignal.any`) converts it with
 * `abortSignalOf`; undici's `request` takes a CancelSignal as it is.
 */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: CancelListener, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: CancelListener): void;
}

/**
 * One request's cancellation, fired when its client goes away. An AbortSignal costs an EventTarget
 * per request (about 3 µs to make on Node 20, as much again to listen to), most of the per-request
 * cost of the chat path's own code; this is a flag and an array. APIs that want a real AbortSignal
 * get one from `signal`, made on first use.
 */
export class RequestCancel implements CancelSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: CancelListener[] | undefined = undefined;
  private controller: AbortController | undefined = undefined;

  /** Listeners run once, on abort; one added after the abort never runs (as on an AbortSignal). */
  addEventListener(_type: 'abort', listener: CancelListener): void {
    if (this.aborted) return;
    if (this.listeners === undefined) this.listeners = [listener];
    else this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: CancelListener): void {
    const listeners = this.listeners;
    if (listeners === undefined) return;
    const at = listeners.indexOf(listener);
    if (at !== -1) listeners.splice(at, 1);
  }

  /** An AbortSignal that aborts with this, for APIs that take one. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners !== undefined) {
      for (const listener of listeners) {
        try {
          if (typeof listener === 'function') listener();
          else listener.handleEvent();
        } catch (err) {
          // As an EventTarget does: a listener's throw is the process's uncaught error, and the
          // other listeners still run.
          process.nextTick(() => {
            throw err;
          });
        }
      }
    }
    this.controller?.abort(reason);
  }
}

/**
 * An AbortSignal that aborts with `signal`: the signal itself when it is one, the lazily made one of
 * a RequestCancel, else one linked by a listener.
 */
export function abortSignalOf(signal: CancelSignal): AbortSignal {
  if (signal instanceof AbortSignal) return signal;
  if (signal instanceof RequestCancel) return signal.signal;
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}

/** Throws the signal's reason (as `AbortSignal.throwIfAborted` does) when it has aborted. */
export function throwIfCancelled(signal: CancelSignal): void {
  if (signal.aborted) throw signal.reason;
}
