import type { FastifyInstance } from 'fastify';
import { MAX_SCHEMA_DEPTH, tooDeepAt } from '../api/schema-depth.js';
import { invalidField } from '../errors/errors.js';

/**
 * How deep any JSON body may nest, whatever its route: room for a schema of MAX_SCHEMA_DEPTH levels
 * where a body holds one, and a bound on everything else (tool-call arguments, tool inputs, a field
 * an open object lets through) before a validator, a template or `JSON.stringify` walks it recursively.
 */
export const MAX_BODY_DEPTH = 2 * MAX_SCHEMA_DEPTH;

/** The first steps of a path, as a field is written in the API's messages (`messages[0].content`). */
function fieldOf(path: readonly (string | number)[], shown = 6): string {
  let field = '';
  for (const step of path.slice(0, shown)) field += typeof step === 'number' ? `[${step}]` : field ? `.${step}` : step;
  return path.length > shown ? `${field}...` : field;
}

/** 1214 naming the field for a JSON body nested deeper than MAX_BODY_DEPTH, on every route, before validation. */
export function installBodyDepth(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const body: unknown = request.body;
    if (typeof body !== 'object' || body === null || Buffer.isBuffer(body)) return done();
    const path = tooDeepAt(body, MAX_BODY_DEPTH);
    if (path === undefined) return done();
    done(invalidField(fieldOf(path) || 'body', `a request body may nest at most ${MAX_BODY_DEPTH} levels deep`));
  });
}
