import { createHmac } from 'node:crypto';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import type { EngineContext } from '../engines/chat/factory.js';
import { CHAT_ENGINES } from '../engines/chat/registry.js';
import { openFileStore } from '../files/open-file-store.js';
import { startFileSweeper } from '../files/sweeper.js';
import { openStore } from '../stores/open-store.js';
import { startStorePurger } from '../stores/purger.js';
import type { Store } from '../stores/types.js';
import type { Tracer } from '../telemetry/tracer.js';
import { failureFields } from '../util/failure-fields.js';
import { AccountService, type AccountServiceOptions } from './accounts/account-service.js';
import { HashGate } from './accounts/hash-gate.js';
import { KeyAccess } from './accounts/key-access.js';
import { AgentService, checkAgentsConfig } from './agents/agent-service.js';
import { AnthropicService } from './anthropic/anthropic-service.js';
import { AuditService, type AuditServiceOptions } from './audit/audit-service.js';
import { openBilling } from './billing/open-billing.js';
import { SpendStats } from './billing/spend-stats.js';
import { resolveDeployments } from './chat/chat-deployments.js';
import { ChatMedia } from './chat/chat-media.js';
import { ChatService } from './chat/chat-service.js';
import { EngineDirectory, engineContext } from './chat/engine-directory.js';
import { checkImageDeployments, openImageService } from './images/open-image-service.js';
import { AccountPolicies } from './keys/account-policies.js';
import { AccountPolicyAdmin } from './keys/account-policy-admin.js';
import { KeyAdmin } from './keys/key-admin.js';
import { KeyService } from './keys/key-service.js';
import { PlaygroundTokens } from './keys/playground-tokens.js';
import { createdKeyMessage, loadServerKey, SecretBox } from './keys/secret-box.js';
import { ShutdownHooks } from './lifecycle/shutdown-hooks.js';
import { openLimiter, openSignInLimiter } from './limits/open-limiter.js';
import { pendingBySubject } from './limits/stored-windows.js';
import type { PlatformServices } from './platform-services.js';
import { createReaderService } from './reader/index.js';
import { traceReader } from './reader/traced-reader.js';
import { readerOptions } from './reader-options.js';
import { startResponsePurger } from './responses/response-purger.js';
import { ResponsesService } from './responses/responses-service.js';
import { openSafetyService } from './safety/open-safety-service.js';
import { INDEXER_USER_AGENT } from './search/crawler.js';
import { IndexJobs } from './search/index-jobs.js';
import { openSearchService } from './search/open-search-service.js';
import { TokenizerService } from './tokenizer/tokenizer-service.js';
import { UsageRecorder } from './usage/usage-recorder.js';

export interface ServiceOptions {
  log?: EngineContext['log'];
  /** Folder of the configuration file, against which relative paths in deployments resolve. */
  configDir: string;
  /** OpenTelemetry, when `serve` runs with tracing on (src/telemetry/). */
  tracer?: Tracer | undefined;
  /** Where each audit record is also written as one line (`serve`: the process's log). */
  auditLog?: AuditServiceOptions['log'];
}

/** What the key commands need: the store and the keys, and nothing of the engines or their files. */
export interface KeyServices {
  store: Store;
  keys: KeyService;
  keyAdmin: KeyAdmin;
  accounts: AccountService;
  audit: AuditService;
  close(): Promise<void>;
}

export async function openKeyServices(config: Config): Promise<KeyServices> {
  const { store, keys } = await openKeys(config);
  // The CLI's acts go to the store's audit log; the server's log is another process's.
  const audit = openAudit(config, store);
  return {
    store,
    keys,
    keyAdmin: new KeyAdmin(keys, store, audit, new AccountPolicies(store, config.accounts)),
    accounts: accountService(config, store, keys, audit),
    audit,
    close: () => store.close(),
  };
}

function openAudit(config: Config, store: Store, log?: AuditServiceOptions['log']): AuditService {
  return new AuditService(store.audit, { log, anonymousPerMinute: config.audit.anonymous_per_minute });
}

async function openKeys(
  config: Config,
  serverKey = loadServerKey(config.security.secret_key, config.data_dir),
): Promise<{ store: Store; keys: KeyService }> {
  const box = new SecretBox(serverKey);
  const store = await openStore(config);
  return {
    store,
    keys: new KeyService({
      store,
      box,
      configuredAdminKey: config.security.admin_key,
      jwtMaxLifetimeMs: config.security.jwt_max_lifetime_seconds * 1000,
    }),
  };
}

function accountService(
  config: Config,
  store: Store,
  keys: KeyService,
  audit: AuditService,
  guards: Pick<AccountServiceOptions, 'signInLimiter' | 'hashGate'> = {},
): AccountService {
  return new AccountService({
    ...guards,
    store,
    keys,
    audit,
    sessionMs: config.console.session_hours * 3_600_000,
    signInAttempts: config.console.sign_in_attempts,
    configuredAdmin: config.security.admin_key !== undefined,
    configuredAdminKey: config.security.admin_key,
  });
}

const quietLog: EngineContext['log'] = { info() {}, warn() {}, error() {} };

/** Opens the store and builds the services of a validated configuration, once, at start-up. */
export async function createServices(config: Config, options: ServiceOptions): Promise<PlatformServices> {
  // Deployments are validated before anything is opened, so a bad one stops start-up cleanly.
  const deployments = resolveDeployments(config, CHAT_ENGINES);
  checkImageDeployments(config);
  checkAgentsConfig(config.agents);
  const log = options.log ?? quietLog;
  const serverKey = loadServerKey(config.security.secret_key, config.data_dir, (file) =>
    log.info(createdKeyMessage(file)),
  );
  const { store, keys } = await openKeys(config, serverKey);
  const spend = new SpendStats();
  const usage = new UsageRecorder(store, {
    onRecord: (record) => spend.recorded(record),
    journal: { dir: path.join(config.data_dir, 'usage-journal'), sync: config.usage.journal_sync },
    maxQueued: config.usage.max_queued,
    retryMaxMs: config.usage.retry_max_seconds * 1000,
    onError: (err, n, retryInMs) =>
      log.error(
        failureFields(err, log),
        `${n} usage records could not be written to the store; kept in the journal, tried again in ${retryInMs} ms`,
      ),
    onRefused: (err, n, file) =>
      log.error({ err }, `the store refuses ${n} usage records whatever happens; set aside in ${file ?? 'the log'}`),
    onJournalError: (err, n) =>
      log.error(
        { err },
        `the usage journal could not be written: ${n} replies refused (1305), their records kept in memory`,
      ),
  });
  // Records that a process which died left in its journal are in the store before the first request.
  await usage.start();
  const accountPolicies = new AccountPolicies(store, config.accounts);
  const limiter = await openLimiter(config, {
    store,
    log,
    pending: pendingBySubject(usage, (k) => accountPolicies.knownAccountOf(k)),
  });
  const signInLimiter = await openSignInLimiter(config, log);
  const context = engineContext(config, log, availableParallelism(), options.configDir);
  const engines = new EngineDirectory(deployments, context);
  if (options.tracer) engines.observe({ tracer: options.tracer });
  const search = await openSearchService(config, options.tracer);
  const pageIndex = config.search.index_reader_pages ? { pages: search.index, log } : undefined;
  const plainReader = createReaderService(readerOptions(config.reader, store, pageIndex));
  const reader = options.tracer ? traceReader(plainReader, options.tracer) : plainReader;
  const indexJobs = new IndexJobs(reader, search.index, { userAgent: INDEXER_USER_AGENT });
  const files = openFileStore(config, (keyId) => store.accounts.keyOwner(keyId));
  const stopSweeper = startFileSweeper(files, config.files.sweep_interval_seconds * 1000, log);
  const stopPurger = startStorePurger(
    store,
    {
      intervalMs: config.database.purge_interval_seconds * 1000,
      cacheMaxBytes: config.reader.cache_max_bytes,
      requestIdsKeepMs: config.database.request_id_days * 86_400_000,
      auditKeepMs: config.audit.retention_days * 86_400_000,
      conversationsKeepMs: config.agents.conversation_retention_days * 86_400_000,
    },
    log,
  );
  const stopResponsePurger = startResponsePurger(store.responses, config, log);
  const safety = openSafetyService(config, engines, log);
  const imaging = await openImageService(config, {
    store,
    files,
    safety,
    log,
    configDir: context.configDir,
    tracer: options.tracer,
    usage,
  });
  const audit = openAudit(config, store, options.auditLog);
  const keyAdmin = new KeyAdmin(keys, store, audit, accountPolicies);
  const keyAccess = new KeyAccess(store, keys, keyAdmin, usage, config.limits);
  const { billing, money } = await openBilling(config, { store, serverKey, log, audit, stats: spend });
  const chat =
    deployments.size > 0
      ? new ChatService(
          engines,
          search,
          {
            templateMaxChars: config.chat.template_max_chars,
            templateMaxPlaceholders: config.chat.template_max_placeholders,
            maxCharsPerToken: config.chat.max_chars_per_token,
          },
          new ChatMedia({
            allowHosts: config.reader.allow_hosts,
            maxBytes: config.chat.media_max_bytes,
            deadlineSeconds: config.chat.media_deadline_seconds,
          }),
        )
      : undefined;
  // Artifacts are named by an HMAC under a key of their own, derived from the server key: the same
  // in every process (several share the file store), never the server key itself.
  const artifactKey = createHmac('sha256', serverKey).update('gen-platform conversation artifacts').digest();
  const agents = new AgentService(chat, store.conversations, files, config.agents.general_translation, artifactKey);
  return {
    config,
    reader,
    search,
    files,
    store,
    keys,
    keyAdmin,
    accountPolicies,
    accountPolicyAdmin: new AccountPolicyAdmin(store, accountPolicies, audit),
    audit,
    accounts: accountService(config, store, keys, audit, {
      signInLimiter,
      hashGate: new HashGate(config.console.hash_concurrency, config.console.hash_queue),
    }),
    keyAccess,
    limiter,
    usage,
    billing,
    money,
    chat,
    anthropic: new AnthropicService(chat, config.anthropic),
    responses: new ResponsesService(chat, store.responses, {
      retentionMs: config.responses.retention_days * 86_400_000,
    }),
    tokenizer:
      chat &&
      new TokenizerService(chat, {
        allowHosts: config.reader.allow_hosts,
        maxFiles: config.tokenizer.max_file_items,
        maxFetchBytes: config.tokenizer.media_max_bytes,
        deadlineSeconds: config.tokenizer.media_deadline_seconds,
      }),
    engines,
    shutdown: new ShutdownHooks(),
    safety,
    images: imaging?.images,
    agents,
    tracer: options.tracer,
    indexJobs,
    playgroundTokens: new PlaygroundTokens(keyAccess, keys),
    async close() {
      stopSweeper();
      stopPurger();
      audit.close();
      billing.close();
      stopResponsePurger();
      indexJobs.close();
      await imaging?.close();
      await Promise.all([
        files.close(),
        engines.close(),
        reader.close(),
        search.close(),
        usage.close(),
        limiter.close(),
        signInLimiter.close(),
        agents.close(),
      ]);
      await store.close();
    },
  };
}

export async function closeServices(services: PlatformServices): Promise<void> {
  await services.close();
}
