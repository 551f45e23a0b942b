import type { CancelSignal } from '../util/cancel-signal.js';
import type { Caller } from './search/collection-access.js';
import { RequestUsage } from './usage/request-usage.js';

/**
 * What a service is handed with each request's work, besides the request itself: the one
 * per-request context below the routes. The edge's operation context is one.
 */
export interface CallContext {
  /** Aborted when the client goes away: the work stops. */
  readonly signal: CancelSignal;
  /**
   * Whose request this is, as an opaque string: where requests wait for a shared resource (an
   * engine's sequences, a deployment's cap, image job slots), tenants are served in turn.
   */
  readonly tenant: string;
  /** What the request uses, noted by the service as it is used. */
  readonly usage: RequestUsage;
  /** The key (and account) making an API request; what it may read depends on it. Absent: work of the platform itself. */
  readonly caller?: Caller | undefined;
}

/**
 * A context for work that no API request carries (a benchmark, a test, a command): its usage is
 * kept in a context of its own, read back from `usage`.
 */
export function callContext(options: { signal?: CancelSignal; tenant?: string } = {}): CallContext {
  return {
    signal: options.signal ?? new AbortController().signal,
    tenant: options.tenant ?? '',
    usage: new RequestUsage(),
  };
}
