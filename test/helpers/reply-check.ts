import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { ErrorReply } from '../../src/api/error-reply.js';

/**
 * Checks every reply and every SSE chunk an app sends against the reply schemas of its route
 * (src/api/*-reply.ts, wired by app/api-scope.ts), so that the whole e2e suite is also a test of
 * the schemas. Installed by createTestApp; what breaks a schema is collected, and the app's close()
 * fails with it.
 */
export interface ReplyCheck {
  violations: string[];
}

// The validator Fastify validates requests with, set as strict as the reply schemas allow.
const ajv = new Ajv({ allErrors: true, strict: false, discriminator: true });
const compiled = new WeakMap<TSchema, ValidateFunction>();
const checker = (schema: TSchema) => {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = ajv.compile(schema);
    compiled.set(schema, check);
  }
  return check;
};

interface Content {
  content?: Record<string, { schema: TSchema }>;
}

/** The schemas of a route's replies by status: its 200 reply (and chunk, when it streams), errors. */
export interface RouteReplies {
  reply?: TSchema | undefined;
  chunk?: TSchema | undefined;
  error?: TSchema | undefined;
}

export function routeReplies(response: Record<string, unknown> | undefined): RouteReplies {
  if (response === undefined) return {};
  const ok = response['200'] as (TSchema & Content) | undefined;
  const error = (response['4xx'] ?? response['5xx']) as TSchema | undefined;
  if (ok?.content) {
    return {
      reply: ok.content['application/json']?.schema,
      chunk: ok.content['text/event-stream']?.schema,
      error,
    };
  }
  return { reply: ok, error };
}

function problems(schema: TSchema, value: unknown): string[] {
  const check = checker(schema);
  if (check(value)) return [];
  return (check.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}

/** What in a reply (status, body text) breaks its schemas; empty when all holds. */
export function replyProblems(replies: RouteReplies, status: number, text: string): string[] {
  const parse = (json: string): unknown => {
    try {
      return JSON.parse(json);
    } catch {
      return Symbol('not JSON');
    }
  };
  if (status >= 400) return replies.error ? problems(replies.error, parse(text)) : [];
  if (status !== 200) return [];
  if (replies.chunk && (text.startsWith('data: ') || text.startsWith('event: '))) {
    const out: string[] = [];
    // Only whole events: a stream the client left may end inside one.
    const events = text.split('\n\n').slice(0, -1);
    for (const [i, event] of events.entries()) {
      // A named event (`event: <type>` first) carries its JSON on the `data: ` line.
      const data = event.slice(event.indexOf('data: ') + 'data: '.length);
      if (data === '[DONE]') continue;
      for (const p of problems(replies.chunk, parse(data))) out.push(`chunk ${i}: ${p}`);
    }
    return out;
  }
  return replies.reply ? problems(replies.reply, parse(text)) : [];
}

const API_PATH = /^\/(paas\/v4|coding\/paas\/v4|v1)\//;

/** Installs the check on `app` (before it is ready). */
export function installReplyCheck(app: FastifyInstance): ReplyCheck {
  const state: ReplyCheck = { violations: [] };
  app.addHook('onRequest', (request, reply, done) => {
    const schema = request.routeOptions.schema as { response?: Record<string, unknown> } | undefined;
    // An unknown path under the API still answers the error body.
    const replies =
      schema?.response === undefined
        ? API_PATH.test(request.url) && request.routeOptions.url === undefined
          ? { error: ErrorReply }
          : undefined
        : routeReplies(schema.response);
    if (replies === undefined) {
      done();
      return;
    }
    const raw = reply.raw;
    const parts: Buffer[] = [];
    const keep = (chunk: unknown) => {
      if (typeof chunk === 'string') parts.push(Buffer.from(chunk));
      else if (chunk instanceof Uint8Array) parts.push(Buffer.from(chunk));
    };
    const write = raw.write.bind(raw) as (...args: unknown[]) => boolean;
    const end = raw.end.bind(raw) as (...args: unknown[]) => typeof raw;
    // light-my-request's end() writes its data through write(): what end() is given is kept once.
    let ending = false;
    raw.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (!ending) keep(chunk);
      return write(chunk, ...rest);
    }) as typeof raw.write;
    raw.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') keep(chunk);
      ending = true;
      return end(chunk, ...rest);
    }) as typeof raw.end;
    raw.once('finish', () => {
      // A file's bytes are in their own type; a hijacked stream has no header Fastify knows of.
      const type = String(reply.getHeader('content-type') ?? '');
      if (type !== '' && !/json|event-stream/i.test(type)) return;
      const found = replyProblems(replies, raw.statusCode, Buffer.concat(parts).toString('utf8'));
      if (found.length > 0) {
        const line = `${request.method} ${request.url} → ${raw.statusCode}: ${found.join('; ')}`;
        state.violations.push(line);
        console.error(`reply breaks its schema: ${line}`);
      }
    });
    done();
  });
  return state;
}
