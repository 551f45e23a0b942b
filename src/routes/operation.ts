import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReplyIdentity } from '../api/reply-identity.js';
import type { ApiError } from '../errors/api-error.js';
import type { ErrorShape } from '../server/error-body.js';
import type { CallContext } from '../services/call-context.js';
import type { PlatformServices } from '../services/platform-services.js';
import type { RequestUsage } from '../services/usage/request-usage.js';
import type { KeyRecord } from '../stores/types.js';
import type { CancelSignal } from '../util/cancel-signal.js';

export interface OperationContext<Body> extends CallContext {
  body: Body;
  params: Record<string, string>;
  key: KeyRecord;
  /** The client's `request_id`, already claimed for this key, if it sent one. */
  clientRequestId: string | undefined;
  /** The reply's `id`, `created` and `request_id`: the edge makes them, the handler puts them on the reply. */
  identity: ReplyIdentity;
  services: PlatformServices;
  /**
   * Aborted when the client goes away: the one cancellation type of every seam (util/cancel-signal.ts),
   * handed to services as it is.
   */
  signal: CancelSignal;
  /** Whose request this is where requests wait for a shared resource: the key's id. */
  tenant: string;
  /**
   * What the request uses, for its usage record: the services doing its work note it (the context
   * is a `CallContext`, so a handler passes itself to them); a handler notes only what no service does.
   */
  usage: RequestUsage;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Which group of operations an operation belongs to: where a scope mounts it. */
export type OperationBase = 'paas' | 'agents' | 'anthropic';

/** One operation of the API: validated at the edge, handled by a service, shaped into the reply. */
export interface Operation<Body = unknown, Reply extends TSchema = TSchema> {
  id: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative to its base (`/paas/v4`, `/v1`, or `/anthropic/v1`). */
  path: string;
  base: OperationBase;
  summary: string;
  body?: TSchema;
  params?: TSchema;
  /** The 200 reply's schema (src/api/*-reply.ts): Fastify serialises the reply with it and OpenAPI documents it. */
  reply: Reply;
  /** The schema of each `data:` event when the operation streams (`stream: true`). */
  chunk?: TSchema;
  /**
   * Errors in another API's shape (the Responses API answers OpenAI's): the body maker, its schema
   * and, where that API's status differs from this one's, the status. Default: the API's own
   * (docs/wire.md, "Errors").
   */
  errors?: { shape: ErrorShape; reply: TSchema; status?: (err: ApiError) => number };
  /**
   * The model code a request calls, which the key's and its account's model allowlists are checked
   * against before the handler runs (default: the body's `model`). An API that takes other names for
   * models (Anthropic's Claude names) resolves them here, so an allowlist always names model codes.
   */
  model?: (body: Body, services: PlatformServices) => string | undefined;
  /** Cross-field rules of the spec, run after schema validation. */
  rules?: (body: Body) => void;
  /**
   * A returned value is sent as JSON, serialised from `reply` (and typed by it); a handler that
   * streams sends the reply itself and returns undefined.
   */
  handle(ctx: OperationContext<Body>): Promise<Static<Reply> | undefined>;
}

export const defineOperation = <Body, Reply extends TSchema = TSchema>(
  op: Operation<Body, Reply>,
): Operation<Body, Reply> => op;
