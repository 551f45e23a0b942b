import type { KeyRecord } from '../stores/types.js';
import type { Span } from '../telemetry/tracer.js';
import type { RequestCancel } from '../util/cancel-signal.js';

/** What a handler reports for the usage record of its request. */
export interface RequestUsage {
  model?: string | undefined;
  promptTokens?: number;
  completionTokens?: number;
  /** The API error code the request was answered with, if any (for metrics and the request log). */
  errorCode?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: KeyRecord | undefined;
    usage: RequestUsage;
    /**
     * Makes the request's usage record now, with the status its reply ends with, once (later calls:
     * undefined). The promise resolves when the record is durable: the reply's last byte waits for
     * it. Set for requests admitted under a key (app/track-request.ts).
     */
    commitUsage: ((status: number) => Promise<void> | undefined) | undefined;
    /** Aborted when the response closes before it has finished (the client went away). */
    cancel: RequestCancel | undefined;
    /** The request's span when tracing is on (server/tracing.ts); its handler runs inside it. */
    traceSpan: Span | undefined;
  }
  interface FastifyContextConfig {
    /** The operation's id, recorded with usage and used by the shared auth suite. */
    operation?: string;
  }
}
