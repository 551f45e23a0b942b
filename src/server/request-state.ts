import type { HeldKey } from '../services/keys/account-policies.js';
import type { RequestUsage } from '../services/usage/request-usage.js';
import type { KeyRecord } from '../stores/types.js';
import type { Span } from '../telemetry/tracer.js';
import type { RequestCancel } from '../util/cancel-signal.js';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: KeyRecord | undefined;
    /** The account the key belongs to and what its keys share; undefined for the admin's keys. */
    keyAccount: HeldKey | undefined;
    /**
     * What the request uses, for its usage record: handed to the operation as `ctx.usage`, where
     * the services doing its work note it. Set for requests admitted under a key (app/track-request.ts).
     */
    usage: RequestUsage | undefined;
    /** The API error code the request was answered with, if any (for metrics, traces and the request log). */
    errorCode: number | undefined;
    /**
     * Makes the request's usage record now, with the status its reply ends with, once (later calls
     * resolve at once). The promise resolves when the record is durable: the reply's last byte waits
     * for it. Set for requests admitted under a key (app/track-request.ts).
     */
    commitUsage: ((status: number) => Promise<void>) | undefined;
    /** Aborted when the response closes before it has finished (the client went away). */
    cancel: RequestCancel | undefined;
    /**
     * Set to the operation's handler when it starts: a request whose client leaves is recorded once
     * the handler has ended, with what its work used until then (app/track-request.ts).
     */
    handling: Promise<unknown> | undefined;
    /** The request's span when tracing is on (server/tracing.ts); its handler runs inside it. */
    traceSpan: Span | undefined;
  }
  interface FastifyContextConfig {
    /** The operation's id, recorded with usage and used by the shared auth suite. */
    operation?: string;
  }
}
