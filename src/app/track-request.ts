import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformServices } from '../services/platform-services.js';
import { RequestUsage } from '../services/usage/request-usage.js';
import type { UsageRecord } from '../stores/types.js';
import { RequestCancel } from '../util/cancel-signal.js';

const DONE: Promise<void> = Promise.resolve();

/**
 * How long the record of a request whose client left waits for its handler to end (engines stop
 * promptly once cancelled; this bounds one that does not): past it the record is made with what
 * has been counted.
 */
const HANDLER_WAIT_MS = 10_000;

/**
 * Tracks an admitted request to its end. It gets its usage context (`request.usage`, the
 * operation's `ctx.usage`) and its cancellation (`request.cancel`) here. Its usage record is made
 * once: when its reply is about to end (`request.commitUsage`, called by the API scope's onSend
 * hook for a JSON reply and by the event stream before `data: [DONE]`), which returns the promise
 * that the record is durable, so that no client ever holds a whole reply whose usage could be lost;
 * or, failing that, when the response closes (a client that left: 499). On close the key's
 * concurrency slot is released and the operation cancelled unless the response had finished; the
 * record then waits for the handler to end, so that what its work used until it stopped (tokens
 * evaluated and emitted) is in it.
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
  const usage = new RequestUsage();
  request.cancel = cancel;
  request.usage = usage;
  // Without a price nothing is metered: the request path stays as it is.
  if (services.billing.active) usage.meter = services.billing.meter(request.apiKey!.id, request.id);
  request.commitUsage = (status) => {
    if (recorded) return DONE;
    recorded = true;
    const latencyMs = performance.now() - started;
    // Most requests have nothing left to count: their record is made now, without a turn in between.
    if (usage.settled) {
      try {
        return services.usage.record(usageRecord(request, usage, status, latencyMs));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return usage.counted().then(() => services.usage.record(usageRecord(request, usage, status, latencyMs)));
  };
  // 'finish' rather than writableFinished: in-process (inject) responses never set the latter.
  // Both fire at most once per response: `on` spares the wrapper `once` makes.
  reply.raw.on('finish', () => {
    finished = true;
  });
  reply.raw.on('close', () => {
    release();
    const cut = !finished && !reply.raw.writableFinished;
    if (cut) cancel.abort();
    if (recorded) return;
    recorded = true;
    const status = cut ? 499 : reply.statusCode;
    const latencyMs = performance.now() - started;
    // Nobody waits on it: the reply is over. A journal failure keeps the record in memory.
    handlerEnded(request.handling)
      .then(() => usage.counted())
      .then(() => services.usage.record(usageRecord(request, usage, status, latencyMs)))
      .catch(() => {});
  });
}

/** Resolves when the handler has ended (however), or after HANDLER_WAIT_MS. */
function handlerEnded(handling: Promise<unknown> | undefined): Promise<void> {
  if (handling === undefined) return DONE;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, HANDLER_WAIT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    handling.then(done, done);
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

/**
 * The record of a request. An error reply bills nothing (the client got no result; its record keeps
 * the status); a reply that went out, whole or cut short, and a request whose client left (499)
 * are billed what their work used. A metered request's record carries what its work cost, who pays,
 * and its reservation, which writing the record settles (stores/settlement.ts). One object literal
 * of fixed shape, priced or not: a spread of the money fields into it took V8's slow copy path.
 */
function usageRecord(request: FastifyRequest, usage: RequestUsage, status: number, latencyMs: number): UsageRecord {
  const body = request.body as Record<string, unknown> | undefined;
  const billed = status < 400 || status === 499;
  const meter = usage.meter;
  const cost = meter !== undefined && billed ? meter.cost() : 0;
  return {
    keyId: request.apiKey!.id,
    operation: request.routeOptions.config.operation ?? 'unknown',
    model: clientText(usage.model ?? body?.['model']),
    requestId: clientText(body?.['request_id']),
    promptTokens: billed ? tokenCount(usage.promptTokens) : 0,
    completionTokens: billed ? tokenCount(usage.completionTokens) : 0,
    status,
    latencyMs,
    createdAt: Date.now(),
    cachedTokens: billed && usage.cachedTokens > 0 ? tokenCount(usage.cachedTokens) : undefined,
    cost: cost > 0 ? cost : undefined,
    accountId: meter?.accountId,
    reservationId: meter?.reserved === true ? meter.reservationId : undefined,
  };
}
