import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import type { ApiError } from '../errors/api-error.js';
import { invalidRequest, missingField, unknownModel } from '../errors/errors.js';

/** `/messages/0/content` → `messages[0].content`: the field as a client wrote it. */
export function fieldName(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (extra !== undefined) parts.push(extra);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

type AjvError = FastifySchemaValidationError & { parentSchema?: Record<string, unknown>; data?: unknown };

const depth = (e: AjvError) => e.instancePath.split('/').length;

/**
 * Of ajv's errors, the one that explains the failure best: the deepest, and at equal depth not a
 * `type` error (a type error in a union means "this was the other branch") nor a union summary.
 */
function chooseError(errors: AjvError[]): AjvError {
  const candidates = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const pool = candidates.length ? candidates : errors;
  return pool.reduce((best, e) => {
    if (depth(e) !== depth(best)) return depth(e) > depth(best) ? e : best;
    return best.keyword === 'type' && e.keyword !== 'type' ? e : best;
  });
}

function rangeText(schema: Record<string, unknown> | undefined): string | undefined {
  const min = schema?.['minimum'] ?? schema?.['exclusiveMinimum'];
  const max = schema?.['maximum'] ?? schema?.['exclusiveMaximum'];
  return min !== undefined && max !== undefined ? `must be between ${min} and ${max}` : undefined;
}

function typeText(errors: AjvError[], path: string): string {
  const types = errors.filter((e) => e.keyword === 'type' && e.instancePath === path).map((e) => e.params['type']);
  return `must be ${[...new Set(types)].join(' or ')}`;
}

function ruleText(error: AjvError, errors: AjvError[]): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return typeText(errors, error.instancePath);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return rangeText(error.parentSchema) ?? `must be ${p['comparison']} ${p['limit']}`;
    case 'minLength':
    case 'maxLength': {
      const min = error.parentSchema?.['minLength'];
      const max = error.parentSchema?.['maxLength'];
      if (min !== undefined && max !== undefined) return `length must be from ${min} to ${max} characters`;
      return error.keyword === 'minLength'
        ? `must have at least ${p['limit']} characters`
        : `must have at most ${p['limit']} characters`;
    }
    case 'minItems':
      return `must have at least ${p['limit']} item${p['limit'] === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${p['limit']} items`;
    case 'pattern':
      return `must match the pattern ${p['pattern']}`;
    case 'enum':
      return `must be one of: ${(p['allowedValues'] as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p['allowedValue'])}`;
    case 'additionalProperties':
      return `has a property that is not allowed: "${p['additionalProperty']}"`;
    case 'discriminator': {
      const allowed = (error.parentSchema?.['oneOf'] as { properties: Record<string, { const: string }> }[] | undefined)
        ?.map((b) => b.properties[String(p['tag'])]?.const)
        .filter(Boolean);
      return `${p['tag']} must be one of: ${allowed?.join(', ') ?? '(see the API reference)'}`;
    }
    default:
      return error.message ?? 'is invalid';
  }
}

/** Turns Fastify's schema validation failure into 1213 (missing) or 1214 (invalid), or 1211 for models. */
export function validationToApiError(errors: FastifySchemaValidationError[], context: string): ApiError {
  const chosen = chooseError(errors as AjvError[]);
  const where = context === 'body' ? '' : `${context} `;
  if (chosen.keyword === 'required') {
    const field = fieldName(chosen.instancePath, String(chosen.params['missingProperty']));
    return missingField(`${where}${field}`);
  }
  const field = fieldName(chosen.instancePath) || context;
  if (chosen.keyword === 'discriminator' && chosen.params['error'] === 'tag') {
    return missingField(`${where}${fieldName(chosen.instancePath, String(chosen.params['tag']))}`);
  }
  if (field === 'model' && (chosen.keyword === 'enum' || chosen.keyword === 'type')) {
    const allowed = (chosen.parentSchema?.['enum'] as unknown[] | undefined)?.join(', ');
    return unknownModel(
      `Model not found: ${JSON.stringify(chosen.data)}${allowed ? `; model must be one of: ${allowed}` : ''}`,
      { field: 'model' },
    );
  }
  const detail = chosen.keyword === 'discriminator' ? fieldName(chosen.instancePath) : field;
  return invalidRequest(`Invalid ${where}${detail}: ${ruleText(chosen, errors as AjvError[])}`, { field: detail });
}
