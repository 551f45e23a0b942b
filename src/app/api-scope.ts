import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorReply } from '../api/error-reply.js';
import { ApiError } from '../errors/api-error.js';
import { requestIdReused } from '../errors/errors.js';
import type { Operation, OperationBase, OperationContext } from '../routes/operation.js';
import { errorReplyOf, sendApiError } from '../server/error-body.js';
import { unixSeconds } from '../server/ids.js';
import { admitKey, identifyKey } from '../server/key-admission.js';
import { normalizeBody } from '../server/normalize-body.js';
import { tenantOf } from '../server/tenant-of.js';
import { priceCall, pricedPerCall } from '../services/billing/priced-call.js';
import { checkModel } from '../services/keys/key-policy.js';
import type { PlatformServices } from '../services/platform-services.js';
import { RequestUsage } from '../services/usage/request-usage.js';
import { usageNotRecorded } from '../services/usage/usage-recorder.js';
import type { Endpoint } from '../stores/types.js';
import { RequestCancel } from '../util/cancel-signal.js';
import { trackRequest } from './track-request.js';

export interface ApiScopeOptions {
  endpoint: Endpoint;
  /** Keys with any of these endpoints may call the scope (default: `endpoint` alone). */
  endpoints?: readonly Endpoint[];
  /**
   * A header that carries the key instead of `Authorization` (Anthropic's `x-api-key`); when both
   * are sent, this one is read.
   */
  keyHeader?: string;
  /** A header that names the request's id on every reply (Anthropic's `request-id`). */
  requestIdHeader?: string;
  /** Where each group of operations sits inside this scope's prefix. */
  mounts: Partial<Record<OperationBase, string>>;
  /** Groups whose routes appear in the OpenAPI document here (aliases and mirrors do not). */
  documented: readonly OperationBase[];
  operations: readonly Operation<never>[];
  services: PlatformServices;
}

/**
 * One base of the API (e.g. `/paas/v4` on the general endpoint). Order per request: authenticate,
 * check the key's endpoint, admit under the key's limits, parse, validate, run the spec's
 * cross-field rules, claim the client's request id, handle.
 */
export async function apiScope(scope: FastifyInstance, options: ApiScopeOptions): Promise<void> {
  const { endpoint, services, keyHeader, requestIdHeader } = options;
  const endpoints = options.endpoints ?? [endpoint];

  const credential = (request: FastifyRequest): string | undefined => {
    const own = keyHeader === undefined ? undefined : request.headers[keyHeader];
    return typeof own === 'string' && own.trim() !== '' ? own : request.headers.authorization;
  };
  const admit = async (request: FastifyRequest, reply: FastifyReply) => {
    if (requestIdHeader !== undefined) reply.header(requestIdHeader, request.id);
    await identifyKey(services, request, credential(request), endpoints);
    trackRequest(request, reply, await admitKey(services, request), services);
  };
  scope.addHook('onRequest', (request, reply, done) => {
    admit(request, reply).then(() => done(), done);
  });
  // A JSON reply is written only once its usage record is durable: a client never holds a whole
  // reply whose usage a crash could lose. Streams commit theirs before `data: [DONE]`
  // (event-stream.ts). An error reply bills nothing: it goes out as it is (its record is still
  // kept and retried), so a fault's own answer is not replaced by the journal's.
  scope.addHook('onSend', (request, reply, payload, done) => {
    const commit = request.commitUsage;
    if (commit === undefined) {
      done(null, payload);
      return;
    }
    const durable = commit(reply.statusCode);
    if (reply.statusCode >= 400) {
      durable.catch(() => {});
      done(null, payload);
    } else
      durable.then(
        () => done(null, payload),
        (err: unknown) => done(null, JSON.stringify(errorReplyOf(reply, usageNotRecorded(err)))),
      );
  });

  for (const op of options.operations) {
    const prefix = options.mounts[op.base];
    if (prefix === undefined) continue;
    scope.route({
      method: op.method,
      url: prefix + op.path,
      config: op.errors
        ? {
            operation: op.id,
            errorShape: op.errors.shape,
            ...(op.errors.status ? { errorStatus: op.errors.status } : {}),
          }
        : { operation: op.id },
      schema: {
        summary: op.summary,
        ...(options.documented.includes(op.base) ? { operationId: op.id } : { hide: true }),
        tags: [TAGS[op.base]],
        security: [{ bearer: [] }],
        ...(op.body ? { body: op.body } : {}),
        ...(op.params ? { params: op.params } : {}),
        response: responseSchemas(op),
      },
      // Callback-style: no promise per request unless there is a request id to claim. A throw
      // here reaches the error handler as an async hook's rejection would.
      preValidation: (request, _reply, done) => {
        normalizeBody(request.body, op.body);
        done();
      },
      preHandler: (request, _reply, done) => {
        const body = request.body as Record<string, unknown> | undefined;
        const named = body?.['model'];
        const model = op.model ? op.model(body as never, services) : named;
        if (typeof model === 'string') {
          checkModel(request.apiKey!, model, request.keyAccount?.models, typeof named === 'string' ? named : model);
        }
        op.rules?.(body as never);
        const requestId = body?.['request_id'];
        if (typeof requestId !== 'string') {
          done();
          return;
        }
        services.store
          .claimRequestId(request.apiKey!.id, requestId, Date.now())
          .then((claimed) => done(claimed ? undefined : requestIdReused(requestId)), done);
      },
      handler: (request, reply) => runOperation(op, request, reply, services),
    });
  }
}

const TAGS: Record<OperationBase, string> = { paas: 'platform', agents: 'agents', anthropic: 'anthropic' };

/**
 * The replies of an operation by status: its own on 200 (JSON, and the chunk of each SSE event when
 * it streams), the error body on every 4xx and 5xx.
 */
function responseSchemas(op: Operation<never>) {
  const ok = op.chunk
    ? {
        description: 'The reply; with `stream: true`, server-sent events of chunks, then `data: [DONE]`',
        content: { 'application/json': { schema: op.reply }, 'text/event-stream': { schema: op.chunk } },
      }
    : op.reply;
  const error = op.errors?.reply ?? ErrorReply;
  return { 200: ok, '4xx': error, '5xx': error };
}

async function runOperation(
  op: Operation<never>,
  request: FastifyRequest,
  reply: FastifyReply,
  services: PlatformServices,
) {
  // trackRequest's 'close' listener cancels it; one listener per response rather than two.
  let cancel = request.cancel;
  if (cancel === undefined) {
    const own = new RequestCancel();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) own.abort();
    });
    cancel = own;
  }
  const usage = request.usage ?? new RequestUsage();
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (typeof body['model'] === 'string') usage.useModel(body['model']);
  const requestId = body['request_id'];
  const clientRequestId = typeof requestId === 'string' ? requestId : undefined;
  try {
    // Named fields in one object literal of fixed shape: one allocation per request, one hidden class.
    const context: OperationContext<never> = {
      body: body as never,
      params: (request.params ?? {}) as Record<string, string>,
      key: request.apiKey!,
      clientRequestId,
      // The request's own id (genReqId) is the reply's: one id per request, and the log's reqId
      // names the reply a client quotes.
      identity: { id: request.id, created: unixSeconds(), requestId: clientRequestId ?? request.id },
      services,
      signal: cancel,
      tenant: tenantOf(request),
      usage,
      caller: {
        keyId: request.apiKey!.id,
        accountId: request.keyAccount?.accountId,
        admin: request.apiKey!.role === 'admin',
      },
      request,
      reply,
    };
    // With tracing on, the handler runs in the request's span: the spans it starts are its children.
    const span = request.traceSpan;
    const run = () => op.handle(context);
    // An operation priced per call reserves its price before its handler starts (one without a
    // price, most of them, starts as it would unpriced: no promise in between).
    const meter = usage.meter;
    const handle = meter === undefined || !pricedPerCall(meter, op.id) ? run : () => priceCall(meter, op.id).then(run);
    const handling = span === undefined ? handle() : span.run(handle);
    request.handling = handling;
    const result = await handling;
    if (result === undefined) return reply;
    return reply.send(result);
  } catch (err) {
    if (err instanceof ApiError && !reply.sent) return sendApiError(reply, err);
    throw err;
  }
}
