import { type Static, Type } from '@sinclair/typebox';
import { ChatConfigSchema, TokenizerConfigSchema } from './bounds-schema.js';
import { ImagesConfigSchema, SafetyConfigSchema } from './images-schema.js';
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
          description: 'Largest request body in bytes.',
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
    database: Type.Object(
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
    ),
    redis: Type.Object(
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
    ),
    metrics: Type.Object(
      {
        enabled: Type.Boolean({ default: false, description: 'Serve Prometheus metrics at `GET /metrics` (no auth).' }),
        port: Type.Optional(
          Type.Integer({
            minimum: 0,
            maximum: 65535,
            description: 'Serve `/metrics` on this port of `server.host` instead of the API port.',
          }),
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    tracing: Type.Object(
      {
        endpoint: Type.Optional(
          Type.String({
            pattern: '^https?://',
            description:
              'OpenTelemetry: base URL of an OTLP/HTTP receiver (env `OTEL_EXPORTER_OTLP_ENDPOINT`); spans go to `<endpoint>/v1/traces`. Unset (and no `traces_endpoint`) = tracing off, and nothing of OpenTelemetry is loaded.',
          }),
        ),
        traces_endpoint: Type.Optional(
          Type.String({
            pattern: '^https?://',
            description:
              'Full URL spans are posted to, instead of `<endpoint>/v1/traces` (env `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`).',
          }),
        ),
        service_name: Type.String({
          minLength: 1,
          default: 'gen-platform',
          description: '`service.name` of the spans (env `OTEL_SERVICE_NAME`).',
        }),
        headers: Type.Record(Type.String({ minLength: 1 }), Type.String(), {
          default: {},
          description:
            'Headers sent with every export, e.g. an API key of the receiver (env `OTEL_EXPORTER_OTLP_HEADERS`, `k=v,k2=v2`).',
        }),
        resource_attributes: Type.Record(Type.String({ minLength: 1 }), Type.String(), {
          default: {},
          description:
            'More attributes of the resource, e.g. `deployment.environment` (env `OTEL_RESOURCE_ATTRIBUTES`).',
        }),
        sample_ratio: Type.Number({
          minimum: 0,
          maximum: 1,
          default: 1,
          description:
            "Share of traces recorded when the caller sent no `traceparent` (a caller's sampling decision is followed); env `OTEL_TRACES_SAMPLER_ARG` with `OTEL_TRACES_SAMPLER=parentbased_traceidratio`.",
        }),
      },
      { additionalProperties: false, default: {} },
    ),
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
        preload: Type.Boolean({
          default: true,
          description:
            '`serve` downloads every remote model the deployments need (this default one included) in the background as soon as it starts; `false`: each downloads on its first call.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    reader: Type.Object(
      {
        allow_hosts: Type.Array(Type.String({ minLength: 1 }), {
          default: [],
          description:
            'Hostnames (`intranet.example`, `*.example`) or IPs/CIDRs that the reader may fetch although they are private or loopback.',
        }),
        max_bytes: Type.Integer({
          minimum: 1024,
          default: 10 * 1024 * 1024,
          description: 'Largest page read, after decompression.',
        }),
        max_redirects: Type.Integer({ minimum: 0, maximum: 20, default: 5 }),
        idle_timeout_ms: Type.Integer({
          minimum: 100,
          default: 10_000,
          description: 'Longest silence while reading a page.',
        }),
        browser: Type.Union([Type.Literal('never'), Type.Literal('auto'), Type.Literal('always')], {
          default: 'never',
          description: '`auto` renders pages whose HTML has scripts but almost no text in headless Chromium.',
        }),
        chromium_path: Type.String({ default: '/usr/bin/chromium', description: "Debian's `chromium` package." }),
        cache_ttl_seconds: Type.Integer({
          minimum: 0,
          default: 3600,
          description: 'Lifetime of cached pages; 0 disables the cache.',
        }),
        cache_max_bytes: Type.Integer({
          minimum: 0,
          default: 256 * 1024 * 1024,
          description: 'Largest total size of cached pages; past it, the pages that expire soonest are deleted.',
        }),
        user_agent: Type.Optional(Type.String({ minLength: 1 })),
        workers: Type.Integer({
          minimum: 0,
          maximum: 64,
          default: 0,
          description:
            'Threads that parse and extract pages (HTML, Markdown, PDF text) off the request loop; 0: one per CPU core.',
        }),
        worker_memory_mb: Type.Integer({
          minimum: 32,
          default: 512,
          description:
            'Heap cap of each extraction thread; a page that needs more fails with 1234 and the thread is replaced (a 10 MB article needs about 350).',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
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
      },
      { additionalProperties: false, default: {} },
    ),
    tokenizer: TokenizerConfigSchema,
    usage: UsageConfigSchema,
    chat: ChatConfigSchema,
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
    agents: Type.Object(
      {
        general_translation: Type.Object(
          {
            model: Type.String({
              minLength: 1,
              default: 'gen-4.7',
              description:
                'Chat model code the `general_translation` agent calls (any code served under `models` or by `embedded.default_model`).',
            }),
            max_input_chars: Type.Integer({
              minimum: 1,
              default: 200_000,
              description: 'Longest text (characters, all user messages together) the agent translates in one call.',
            }),
            glossary_repair: Type.Boolean({
              default: true,
              description:
                'When a glossary target term is missing from a piece’s translation, make one more call asking for it (counted in `usage.total_calls`).',
            }),
            max_glossary_entries: Type.Integer({
              minimum: 0,
              default: 2000,
              description: 'Entries one `custom_variables.glossary` may have; more: 1214 naming the line past it.',
            }),
            max_glossary_bytes: Type.Integer({
              minimum: 0,
              default: 128 * 1024,
              description: 'Bytes (UTF-8) one `custom_variables.glossary` may have; more: 1214.',
            }),
            artifact_max_pages: Type.Integer({
              minimum: 0,
              default: 50,
              description: 'Page images (`custom_variables.pages`) one conversation retrieval may ask for; more: 1214.',
            }),
            artifact_max_page_pixels: Type.Integer({
              minimum: 1,
              default: 25_000_000,
              description: 'Pixels (width × height) of one page image; more: 1214 naming the page.',
            }),
            artifact_max_pixels: Type.Integer({
              minimum: 1,
              default: 50_000_000,
              description: 'Pixels of all the page images one conversation retrieval asks for together; more: 1214.',
            }),
            piece_tokens: Type.Integer({
              minimum: 0,
              default: 0,
              description:
                "Largest piece of a long text sent in one model call, in the model's tokens; 0 = a quarter of the model's context window.",
            }),
            render_queue_size: Type.Integer({
              minimum: 0,
              default: 16,
              description:
                'Conversation-artifact renders (PDF, page images) that may wait for the renderer, served key by key; one more gets 1305.',
            }),
          },
          { additionalProperties: false, default: {} },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
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
