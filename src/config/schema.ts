import { type Static, Type } from '@sinclair/typebox';
import { AgentsConfigSchema } from './agents-schema.js';
import { AnthropicConfigSchema } from './anthropic-schema.js';
import { BillingConfigSchema, PricesConfigSchema } from './billing-schema.js';
import { ChatConfigSchema, TokenizerConfigSchema } from './bounds-schema.js';
import { DatabaseConfigSchema, RedisConfigSchema } from './database-schema.js';
import { AuditConfigSchema } from './governance-schema.js';
import { ImagesConfigSchema, SafetyConfigSchema } from './images-schema.js';
import { LlamaServerConfigSchema } from './llama-server-schema.js';
import { MetricsConfigSchema, TracingConfigSchema } from './observability-schema.js';
import { ReaderConfigSchema } from './reader-schema.js';
import { ResponsesConfigSchema } from './responses-schema.js';
import { SERVER_TIMEOUTS, TrustProxySchema } from './server-schema.js';
import { UsageConfigSchema } from './usage-schema.js';

/**
 * The one configuration schema. Every key has its default here; docs/configuration.md is checked
 * against this schema by a test. Engine deployments are validated by their engine's own schema.
 */
const LimitWindow = Type.Object(
  {
    requests: Type.Integer({ minimum: 1, description: 'Requests allowed in the window.' }),
    hours: Type.Number({ exclusiveMinimum: 0, description: 'Length of the sliding window in hours.' }),
  },
  { additionalProperties: false },
);

export const KeyLimitsSchema = Type.Object(
  {
    concurrent: Type.Integer({ minimum: 0, default: 0, description: 'Requests in flight per key; 0 = no limit.' }),
    requests_per_minute: Type.Integer({
      minimum: 0,
      default: 0,
      description: 'Requests per minute per key; 0 = no limit.',
    }),
    windows: Type.Array(LimitWindow, {
      default: [],
      description: 'Usage windows, e.g. `[{requests: 1000, hours: 5}]`; 1308 when one is exhausted.',
    }),
  },
  { additionalProperties: false },
);
export type KeyLimits = Static<typeof KeyLimitsSchema>;

const Deployment = Type.Object(
  { engine: Type.String({ minLength: 1, description: 'Engine name: `llama-cpp`, `openai-compatible`, ...' }) },
  { additionalProperties: true },
);

export const ConfigSchema = Type.Object(
  {
    server: Type.Object(
      {
        host: Type.String({ default: '127.0.0.1', minLength: 1, description: 'Address to listen on (env `HOST`).' }),
        port: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'Port (env `PORT`).' }),
        body_limit: Type.Integer({
          minimum: 1024,
          default: 10 * 1024 * 1024,
          description: 'Largest request body in bytes of an API operation (`/paas/v4`, `/v1`, ...).',
        }),
        control_body_limit: Type.Integer({
          minimum: 1024,
          default: 64 * 1024,
          description:
            "Largest request body in bytes of the console's and `/admin`'s JSON routes (console sign-in takes 8 KiB; the search index import has its own 64 MiB).",
        }),
        public_url: Type.Optional(
          Type.String({ minLength: 1, description: 'Base URL that clients reach this server at, used in file URLs.' }),
        ),
        trust_proxy: TrustProxySchema,
        ...SERVER_TIMEOUTS,
      },
      { additionalProperties: false, default: {} },
    ),
    data_dir: Type.String({
      default: './data',
      minLength: 1,
      description: 'SQLite database, server key and files (env `GEN_PLATFORM_DATA`).',
    }),
    database: DatabaseConfigSchema,
    redis: RedisConfigSchema,
    metrics: MetricsConfigSchema,
    tracing: TracingConfigSchema,
    shutdown: Type.Object(
      {
        grace_seconds: Type.Number({
          minimum: 0,
          default: 30,
          description:
            'On SIGTERM/SIGINT: stop accepting, let open requests and streams finish for this long, then close them and exit 0.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    log: Type.Object(
      {
        level: Type.Union(
          ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
          { default: 'info', description: 'Log level (env `LOG_LEVEL`).' },
        ),
        format: Type.Union([Type.Literal('auto'), Type.Literal('json'), Type.Literal('pretty')], {
          default: 'auto',
          description:
            'Log lines on stdout: `json` (one JSON object a line, for machines), `pretty` (readable lines), `auto`: pretty on a terminal, JSON otherwise (env `LOG_FORMAT`).',
        }),
        requests: Type.Boolean({
          default: false,
          description: 'One log line per request (id, operation, status, time); off costs nothing.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    security: Type.Object(
      {
        secret_key: Type.Optional(
          Type.String({
            pattern: '^[0-9a-fA-F]{64}$',
            description:
              'Key that encrypts API-key secrets at rest (64 hex chars, env `GEN_PLATFORM_SECRET_KEY`); unset = `server.key` in data_dir, created on first start.',
          }),
        ),
        admin_key: Type.Optional(
          Type.String({
            minLength: 16,
            description:
              'Admin key for `/admin` (env `GEN_PLATFORM_ADMIN_KEY`); unset = one is created on first start and printed once.',
          }),
        ),
        jwt_max_lifetime_seconds: Type.Integer({
          minimum: 60,
          default: 86400,
          description:
            'Longest a signed token (JWT) may live: one whose `exp` is further ahead than this is refused (1002).',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    console: Type.Object(
      {
        enabled: Type.Boolean({ default: true, description: 'Serve the web console at `/console`.' }),
        session_hours: Type.Number({
          default: 12,
          exclusiveMinimum: 0,
          maximum: 8760,
          description: 'How long a console sign-in lasts, in hours.',
        }),
        sign_in_attempts: Type.Integer({
          default: 10,
          minimum: 1,
          description:
            'Failed sign-ins per account and client address before each further attempt must wait, doubling from 1 s up to `sign_in_max_delay_seconds` (per address, and per account from all addresses: five times as many); counts are forgotten after 15 minutes without a failure. Never a lockout. In Redis when `redis.url` is set.',
        }),
        sign_in_max_delay_seconds: Type.Integer({
          default: 60,
          minimum: 1,
          maximum: 3600,
          description:
            'The longest wait between two sign-in attempts of a subject that keeps failing (429, `Retry-After`).',
        }),
        hash_concurrency: Type.Integer({
          default: 2,
          minimum: 1,
          maximum: 64,
          description: 'Password hashes (scrypt, 64 MiB each) computed at once.',
        }),
        hash_queue: Type.Integer({
          default: 64,
          minimum: 0,
          description: 'Sign-ins that may wait for a hash; past it: 503, code 1305, `Retry-After: 1`.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    accounts: Type.Object(
      {
        concurrent: Type.Integer({
          minimum: 0,
          default: 8,
          description:
            'Requests in flight shared by all keys of one console account (on top of each key its own); 0 = no limit. One more gets 1302.',
        }),
        requests_per_minute: Type.Integer({
          minimum: 0,
          default: 0,
          description: 'Requests per minute shared by all keys of one account; 0 = no limit. One more gets 1303.',
        }),
        max_keys: Type.Integer({
          minimum: 0,
          default: 20,
          description: "Active keys one account may hold; 0 = no cap. An account's own setting replaces these.",
        }),
        windows: Type.Array(LimitWindow, {
          default: [],
          description:
            'Usage windows shared by all keys of one account (every request of any of its keys counts), e.g. `[{requests: 5000, hours: 5}]`; one more gets 1308.',
        }),
      },
      {
        additionalProperties: false,
        default: {},
        description: "Defaults for every console account's keys together; the admin's keys have none.",
      },
    ),
    limits: Type.Object(
      {
        concurrent: Type.Integer({
          minimum: 0,
          default: 8,
          description:
            'Requests in flight per key, for keys without limits of their own; 0 = no limit. One more gets 1302.',
        }),
        requests_per_minute: KeyLimitsSchema.properties.requests_per_minute,
        windows: KeyLimitsSchema.properties.windows,
      },
      { additionalProperties: false, default: {}, description: 'Defaults for keys that carry no limits of their own.' },
    ),
    audit: AuditConfigSchema,
    llama_server: LlamaServerConfigSchema,
    embedded: Type.Object(
      {
        default_model: Type.String({
          default: 'hf:unsloth/Qwen3-1.7B-GGUF:Q4_K_M',
          description:
            'Model of the embedded engine for every chat and tokenizer model code that `models` does not map; downloaded on first use (`gen-platform models pull` ahead of time). Empty: such codes answer 1211.',
        }),
        models_dir: Type.Optional(
          Type.String({ minLength: 1, description: 'Where downloaded models go; default `<data_dir>/models`.' }),
        ),
        threads: Type.Integer({ minimum: 0, default: 0, description: 'llama.cpp threads; 0 = one per available CPU.' }),
        context_size: Type.Integer({
          minimum: 256,
          default: 8192,
          description: 'Context window of the default model.',
        }),
        parallel: Type.Integer({
          minimum: 1,
          maximum: 64,
          default: 2,
          description: 'Requests the default model serves at once.',
        }),
        prompt_cache_bytes: Type.Integer({
          minimum: 0,
          default: 1024 ** 3,
          description:
            "Bytes of evaluated prompts each embedded deployment keeps (in files of a private temporary folder, least recently used dropped first), so that a request on any of its sequences restores a prompt another one evaluated instead of evaluating it again (llama-server's `--cache-ram`). 0 = off.",
        }),
        preload: Type.Boolean({
          default: true,
          description:
            '`serve` downloads every remote model the deployments need (this default one included) in the background as soon as it starts; `false`: each downloads on its first call.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    reader: ReaderConfigSchema,
    files: Type.Object(
      {
        dir: Type.Optional(
          Type.String({ minLength: 1, description: 'Folder of generated files; default `<data_dir>/files`.' }),
        ),
        ttl: Type.Integer({
          minimum: 60,
          default: 30 * 24 * 3600,
          description: 'Seconds a generated file (image, agent artifact) stays at its URL; then 404 and deleted.',
        }),
        sweep_interval_seconds: Type.Integer({
          minimum: 1,
          default: 3600,
          description: 'How often expired files are deleted.',
        }),
        max_total_bytes: Type.Integer({
          minimum: 0,
          default: 32 * 1024 ** 3,
          description:
            'Bytes all generated files may hold together; a file past it is refused before it is written (503, code 1305). 0 = no cap.',
        }),
        max_total_files: Type.Integer({
          minimum: 0,
          default: 500_000,
          description: 'Generated files there may be in all; past it: 503, code 1305. 0 = no cap.',
        }),
        max_bytes_per_account: Type.Integer({
          minimum: 0,
          default: 4 * 1024 ** 3,
          description:
            "Bytes of generated files (images, agent artifacts) the keys of one account hold together (a key of no account: that key alone); past it: 429, code 1308, naming when the account's first file expires. 0 = no cap.",
        }),
        max_files_per_account: Type.Integer({
          minimum: 0,
          default: 20_000,
          description:
            'Generated files the keys of one account hold together (a key of no account: that key alone); past it: 429, code 1308. 0 = no cap.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    tokenizer: TokenizerConfigSchema,
    usage: UsageConfigSchema,
    chat: ChatConfigSchema,
    responses: ResponsesConfigSchema,
    anthropic: AnthropicConfigSchema,
    images: ImagesConfigSchema,
    safety: SafetyConfigSchema,
    search: Type.Object(
      {
        default_engine: Type.String({
          minLength: 1,
          default: 'index',
          description:
            "Engine behind `search-prime` and the live platform's engine names: `index` (the platform's own index) or a name under `search.engines`.",
        }),
        engines: Type.Record(
          Type.String({ minLength: 1 }),
          Type.Object(
            {
              type: Type.Literal('searxng'),
              base_url: Type.String({ pattern: '^https?://' }),
              timeout_ms: Type.Optional(Type.Integer({ minimum: 100 })),
              max_pages: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
              language: Type.Optional(Type.String()),
              categories: Type.Optional(Type.String()),
            },
            { additionalProperties: false },
          ),
          { default: {}, description: 'Upstream search engines by name; a `search_engine` of that name routes to it.' },
        ),
        index_reader_pages: Type.Boolean({
          default: false,
          description: 'Add every page read through `/paas/v4/reader` to the index (collection `web`).',
        }),
        title_weight: Type.Number({
          exclusiveMinimum: 0,
          default: 2,
          description:
            'Ranking weight of a title match relative to the body. Applied as documents are written: a change re-weighs the whole index at the next start (minutes for a million documents).',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    agents: AgentsConfigSchema,
    billing: BillingConfigSchema,
    prices: PricesConfigSchema,
    models: Type.Record(
      Type.String(),
      Type.Object({ deployments: Type.Array(Deployment, { minItems: 1 }) }, { additionalProperties: false }),
      { default: {}, description: 'Model code → engine deployments.' },
    ),
  },
  { additionalProperties: false },
);

export type Config = Static<typeof ConfigSchema>;
export type DeploymentConfig = Static<typeof Deployment> & Record<string, unknown>;
