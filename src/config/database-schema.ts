import { Type } from '@sinclair/typebox';

/**
 * `database:` where state lives and how an outage of it is met (start-up wait, pool and
 * query timeouts, retries, the key cache's TTL), and `redis:` the shared limiter's counters.
 */
export const DatabaseConfigSchema = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        pattern: '^postgres(ql)?://',
        description: 'PostgreSQL URL (env `DATABASE_URL`); unset = SQLite under data_dir.',
      }),
    ),
    schema: Type.Optional(Type.String({ pattern: '^[a-z_][a-z0-9_]*$', description: 'PostgreSQL schema to use.' })),
    connect_timeout_seconds: Type.Number({
      minimum: 0,
      default: 30,
      description:
        'How long start-up waits for PostgreSQL to accept connections (retrying with backoff) before it gives up.',
    }),
    pool_timeout_seconds: Type.Number({
      exclusiveMinimum: 0,
      maximum: 120,
      default: 5,
      description:
        'Longest wait for a PostgreSQL connection (server not answering, pool exhausted); then the request gets 503 / 1305.',
    }),
    query_timeout_seconds: Type.Number({
      exclusiveMinimum: 0,
      default: 30,
      description:
        "Longest wait for a store query's answer: a connection whose server vanished without a word (no reset) is dropped then and the request gets 503 / 1305.",
    }),
    retry_ms: Type.Integer({
      minimum: 0,
      maximum: 60_000,
      default: 1000,
      description:
        'How long one call retries a transient database fault (connection lost, admin shutdown, serialization failure, too many connections) with backoff, when it is safe to repeat.',
    }),
    key_cache_ttl_seconds: Type.Number({
      exclusiveMinimum: 0,
      default: 30,
      description:
        'PostgreSQL: a cached key row is read again after this long even when no change notification came (bounds a revocation whose notification was lost).',
    }),
    key_cache_stale_seconds: Type.Number({
      minimum: 0,
      default: 300,
      description:
        'PostgreSQL: while the database cannot be reached, a key row read less than this long ago still authenticates requests.',
    }),
    listen_check_seconds: Type.Number({
      exclusiveMinimum: 0,
      default: 10,
      description:
        'PostgreSQL: how often the key-change LISTEN connection is checked with a query; one that fails or hangs is replaced.',
    }),
    purge_interval_seconds: Type.Integer({
      minimum: 1,
      default: 300,
      description: 'How often expired cache rows, the cache past its cap and old request ids are deleted.',
    }),
    request_id_days: Type.Number({
      exclusiveMinimum: 0,
      default: 7,
      description: 'How long a client-chosen `request_id` stays claimed by its key (1231 on a repeat).',
    }),
  },
  { additionalProperties: false, default: {} },
);

export const RedisConfigSchema = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        pattern: '^rediss?://',
        description:
          'Redis URL (env `REDIS_URL`); set = per-key limits are counted in Redis, exactly across processes.',
      }),
    ),
    prefix: Type.String({
      default: 'gen-platform:',
      minLength: 1,
      description: 'Prefix of every Redis key this server writes (several deployments can share one Redis).',
    }),
    lease_seconds: Type.Number({
      minimum: 1,
      maximum: 60,
      default: 30,
      description:
        'Lifetime of a concurrency slot in Redis, renewed while its request runs; a slot of a process that died is freed after it.',
    }),
    timeout_ms: Type.Integer({
      minimum: 50,
      default: 1000,
      description: 'Longest wait for Redis per request; past it, or while Redis is down, requests fail with 1234.',
    }),
  },
  { additionalProperties: false, default: {} },
);
