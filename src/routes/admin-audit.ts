import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { invalidField } from '../errors/errors.js';
import { auditView } from '../services/audit/audit-service.js';
import type { PlatformServices } from '../services/platform-services.js';
import type { AuditQuery } from '../stores/audit.js';
import { parseRfc3339 } from '../util/rfc3339.js';

const MAX_LIMIT = 1000;

const Time = Type.String({
  maxLength: 40,
  description: 'Unix seconds, or an RFC 3339 time with its offset or `Z` (`2026-05-01T00:00:00Z`).',
});

export const AuditQuerySchema = Type.Object(
  {
    action: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'An action (`key.create`), or a prefix with `*` (`key.*`).',
      }),
    ),
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: '`key:<id>`, `account:<id>`, ...' })),
    target: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    since: Type.Optional(Time),
    until: Type.Optional(Time),
    before: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,15}$', description: 'Records older than this id: the next page.' }),
    ),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: `1 to ${MAX_LIMIT}; default 100.` })),
  },
  { additionalProperties: false },
);

export const AuditRecordSchema = Type.Object({
  id: Type.Integer(),
  at: Type.String({ description: 'ISO 8601, milliseconds, UTC.' }),
  actor: Type.String(),
  address: Type.Union([Type.String(), Type.Null()]),
  action: Type.String(),
  target: Type.Union([Type.String(), Type.Null()]),
  before: Type.Unknown(),
  after: Type.Unknown(),
});

/**
 * A time of the query: Unix seconds or an RFC 3339 time with its offset, as `expires_at` takes it;
 * 1214 naming the field otherwise. A time without an offset is refused rather than read in the
 * server's own time zone, which would shift the range by the server's offset.
 */
export function parseTime(field: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^[0-9]{1,12}$/.test(value)) return Number(value) * 1000;
  const ms = parseRfc3339(value);
  if (Number.isNaN(ms))
    throw invalidField(
      field,
      `must be Unix seconds or an RFC 3339 time with an offset or Z, such as 2026-05-01T00:00:00Z, got ${JSON.stringify(value)}`,
    );
  return ms;
}

/** The query as the store takes it, from the checked query string. */
export function auditQuery(q: Record<string, string | undefined>): AuditQuery {
  const limit = Number(q['limit'] ?? 100);
  if (limit < 1 || limit > MAX_LIMIT) throw invalidField('limit', `must be between 1 and ${MAX_LIMIT}`);
  return {
    action: q['action'],
    actor: q['actor'],
    target: q['target'],
    since: parseTime('since', q['since']),
    until: parseTime('until', q['until']),
    beforeId: q['before'] === undefined ? undefined : Number(q['before']),
    limit,
  };
}

/** `GET /admin/audit`: the audit log, newest first, filtered; read-only (no API changes a record). */
export async function adminAuditRoutes(scope: FastifyInstance, services: PlatformServices): Promise<void> {
  scope.get(
    '/audit',
    {
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        summary: 'The audit log of administrative acts, newest first',
        querystring: AuditQuerySchema,
        response: { 200: Type.Object({ data: Type.Array(AuditRecordSchema) }) },
      },
    },
    async (request) => {
      const records = await services.audit.list(auditQuery(request.query as Record<string, string | undefined>));
      return { data: records.map(auditView) };
    },
  );
}
