import type { Config } from '../config/schema.js';
import type { FileStore } from '../files/types.js';
import type { Store } from '../stores/types.js';
import type { Tracer } from '../telemetry/tracer.js';
import type { AccountService } from './accounts/account-service.js';
import type { KeyAccess } from './accounts/key-access.js';
import type { AgentService } from './agents/agent-service.js';
import type { AnthropicService } from './anthropic/anthropic-service.js';
import type { AuditService } from './audit/audit-service.js';
import type { BillingService } from './billing/billing-service.js';
import type { MoneyDesk } from './billing/money-desk.js';
import type { ChatService } from './chat/chat-service.js';
import type { EngineDirectory } from './chat/engine-directory.js';
import type { ImageService } from './images/image-service.js';
import type { AccountPolicies } from './keys/account-policies.js';
import type { AccountPolicyAdmin } from './keys/account-policy-admin.js';
import type { KeyAdmin } from './keys/key-admin.js';
import type { KeyService } from './keys/key-service.js';
import type { PlaygroundTokens } from './keys/playground-tokens.js';
import type { ShutdownHooks } from './lifecycle/shutdown-hooks.js';
import type { Limiter } from './limits/limiter.js';
import type { ReaderService } from './reader/index.js';
import type { ResponsesService } from './responses/responses-service.js';
import type { SafetyService } from './safety/safety-service.js';
import type { IndexJobs } from './search/index-jobs.js';
import type { SearchService } from './search/search-service.js';
import type { TokenizerService } from './tokenizer/tokenizer-service.js';
import type { UsageRecorder } from './usage/usage-recorder.js';

/** Everything the routes call. Capabilities that later work plugs in are optional until configured. */
export interface PlatformServices {
  config: Config;
  store: Store;
  keys: KeyService;
  /** Administrative acts on keys (create, revoke, ...), each recorded in the audit log. */
  keyAdmin: KeyAdmin;
  /** What all keys of one account share: limits, model allowlist, key cap. */
  accountPolicies: AccountPolicies;
  /** The admin's changes of an account's own policy, audited. */
  accountPolicyAdmin: AccountPolicyAdmin;
  /** The audit log of administrative acts: every route and service that acts records here. */
  audit: AuditService;
  /** Console account holders and sessions, and keys as each of them may see them. */
  accounts: AccountService;
  keyAccess: KeyAccess;
  limiter: Limiter;
  usage: UsageRecorder;
  /** Prices, and the meters and reservations of priced calls (inactive while nothing is priced). */
  billing: BillingService;
  /** Balances, ledger, budgets, redemption codes and price edits (the admin API and the console). */
  money: MoneyDesk;
  engines?: EngineDirectory;
  chat?: ChatService | undefined;
  tokenizer?: TokenizerService | undefined;
  /** Anthropic's Messages API over the chat service. */
  anthropic: AnthropicService;
  /** The Responses API over the chat service, and the responses it stored. */
  responses: ResponsesService;
  reader: ReaderService;
  /** Generated files (images, agent artifacts), served at `/files/{id}`. */
  files: FileStore;
  search: SearchService;
  /** Long jobs register here to be let finish when the server drains (SIGTERM). */
  shutdown: ShutdownHooks;
  /** Content safety (block terms, guard model): images now, agents and chat later. */
  safety: SafetyService;
  /** Image generation, sync and async; undefined when no image model is configured. */
  images?: ImageService | undefined;
  /** The `general_translation` agent and its conversations. */
  agents?: AgentService | undefined;
  /** Crawls and imports that fill the search index in the background (the console's Search page). */
  indexJobs: IndexJobs;
  /** Short-lived tokens for the console's playground, one key per signed-in principal behind them. */
  playgroundTokens: PlaygroundTokens;
  /** OpenTelemetry, when tracing is on (`tracing.endpoint`); undefined otherwise. */
  tracer?: Tracer | undefined;
  /** Releases what the services hold (engines, browsers, pools). */
  close(): Promise<void>;
}
