import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformServices } from '../services/platform-services.js';
import { RequestCancel } from '../util/cancel-signal.js';

/**
 * When the response closes (finished, failed or abandoned by the client): release the key's
 * concurrency slot, write the request's usage record, then cancel the operation
 * (`request.cancel`, created here) unless the response had finished.
 */
export function trackRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  release: () => void,
  services: PlatformServices,
): void {
  const started = performance.now();
  let finished = false;
  const cancel = new RequestCancel();
  request.cancel = cancel;
  // 'finish' rather than writableFinished: in-process (inject) responses never set the latter.
  // Both fire at most once per response: `on` spares the wrapper `once` makes.
  reply.raw.on('finish', () => {
    finished = true;
  });
  reply.raw.on('close', () => {
    release();
    recordUsage(request, reply, services, started, finished);
    if (!finished && !reply.raw.writableFinished) cancel.abort();
  });
}

function recordUsage(
  request: FastifyRequest,
  reply: FastifyReply,
  services: PlatformServices,
  started: number,
  finished: boolean,
): void {
  const key = request.apiKey;
  if (!key) return;
  const { usage } = request;
  const body = request.body as Record<string, unknown> | undefined;
  const requestId = body?.['request_id'];
  services.usage.record({
    keyId: key.id,
    operation: request.routeOptions.config.operation ?? 'unknown',
    model: usage.model ?? (typeof body?.['model'] === 'string' ? body['model'] : undefined),
    requestId: typeof requestId === 'string' ? requestId : undefined,
    promptTokens: usage.promptTokens ?? 0,
    completionTokens: usage.completionTokens ?? 0,
    status: finished || reply.raw.writableFinished ? reply.statusCode : 499,
    latencyMs: performance.now() - started,
    createdAt: Date.now(),
  });
}
