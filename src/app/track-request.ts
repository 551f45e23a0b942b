import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformServices } from '../services/platform-services.js';
import { RequestCancel } from '../util/cancel-signal.js';

/**
 * Tracks an admitted request to its end. Its usage record is made once: when its reply is about to
 * end (`request.commitUsage`, called by the API scope's onSend hook for a JSON reply and by the
 * event stream before `data: [DONE]`), which returns the promise that the record is durable, so
 * that no client ever holds a whole reply whose usage could be lost; or, failing that, when the
 * response closes (a client that left: 499). On close the key's concurrency slot is released and
 * the operation cancelled (`request.cancel`, created here) unless the response had finished.
 */
export function trackRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  release: () => void,
  services: PlatformServices,
): void {
  const started = performance.now();
  let finished = false;
  let recorded = false;
  const cancel = new RequestCancel();
  request.cancel = cancel;
  request.commitUsage = (status) => {
    if (recorded) return undefined;
    recorded = true;
    return services.usage.record(usageRecord(request, status, started));
  };
  // 'finish' rather than writableFinished: in-process (inject) responses never set the latter.
  // Both fire at most once per response: `on` spares the wrapper `once` makes.
  reply.raw.on('finish', () => {
    finished = true;
  });
  reply.raw.on('close', () => {
    release();
    if (!recorded) {
      recorded = true;
      const status = finished || reply.raw.writableFinished ? reply.statusCode : 499;
      // Nobody waits on it: the reply is over. A journal failure keeps the record in memory.
      services.usage.record(usageRecord(request, status, started))?.catch(() => {});
    }
    if (!finished && !reply.raw.writableFinished) cancel.abort();
  });
}

/**
 * A field of the client's body as the record keeps it. A refused request's body was not validated:
 * a NUL or a megabyte here would be refused by the store (PostgreSQL text takes no NUL) on every
 * retry, holding up every record behind it, so only what a valid request could carry is kept.
 */
function clientText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= 64 && !value.includes('\0') ? value : undefined;
}

/** Token counts can come from an upstream engine: a whole number the store's integer column takes. */
function tokenCount(n: number | undefined): number {
  if (n === undefined || !Number.isFinite(n)) return 0;
  return Math.min(2 ** 31 - 1, Math.max(0, Math.round(n)));
}

function usageRecord(request: FastifyRequest, status: number, started: number) {
  const { usage } = request;
  const body = request.body as Record<string, unknown> | undefined;
  return {
    keyId: request.apiKey!.id,
    operation: request.routeOptions.config.operation ?? 'unknown',
    model: clientText(usage.model ?? body?.['model']),
    requestId: clientText(body?.['request_id']),
    promptTokens: tokenCount(usage.promptTokens),
    completionTokens: tokenCount(usage.completionTokens),
    status,
    latencyMs: performance.now() - started,
    createdAt: Date.now(),
  };
}
