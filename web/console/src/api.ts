/** The console's JSON API client: same-origin, the session cookie rides along, CSRF token in a header. */

export interface Principal {
  kind: 'admin' | 'account';
  name: string;
  id?: string;
  email?: string;
}

export interface SessionInfo {
  principal: Principal;
  csrf_token: string;
  expires_at: number;
}

export interface KeyLimits {
  concurrent: number;
  requests_per_minute: number;
  windows: { requests: number; hours: number }[];
}

export interface ConsoleKey {
  id: string;
  name: string;
  endpoints: ('general' | 'coding')[];
  role: 'user' | 'admin';
  limits: KeyLimits | null;
  created_at: number;
  revoked_at: number | null;
  status: 'active' | 'revoked';
  last_used_at: number | null;
  account_id: string | null;
  /** Model codes or patterns the key may call; empty = every model. */
  models: string[];
  /** Unix seconds; null = never. */
  expires_at: number | null;
  /** CIDRs the key may be used from; empty = anywhere. */
  allowed_ips: string[];
  description: string;
  /** Unix seconds until which the secret a roll replaced still works; null = none. */
  previous_secret_until: number | null;
}

/** What the keys page sends to change a key; a field left out keeps its value, null clears it. */
export interface KeyChange {
  name?: string;
  models?: string[];
  expires_at?: string | null;
  allowed_ips?: string[];
  description?: string;
}

export interface Account {
  id: string;
  name: string;
  email: string;
  created_at: number;
  disabled_at: number | null;
}

/** What every key of an account shares; `own` null = the configured default (`effective`). */
export interface AccountPolicy {
  account_id: string;
  own: {
    concurrent: number | null;
    requests_per_minute: number | null;
    max_keys: number | null;
    models: string[];
    windows: LimitWindow[] | null;
  };
  effective: {
    concurrent: number;
    requests_per_minute: number;
    max_keys: number;
    models: string[];
    windows: LimitWindow[];
  };
  active_keys: number;
}

/** A usage window: at most `requests` in any `hours`. */
export interface LimitWindow {
  requests: number;
  hours: number;
}

export interface AccountPolicyChange {
  concurrent: number | null;
  requests_per_minute: number | null;
  max_keys: number | null;
  models: string[] | null;
  windows: LimitWindow[] | null;
}

export interface UsageRow {
  day: string;
  key_id: string;
  model: string;
  requests: number;
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** What the calls cost, a decimal string in the report's currency. */
  cost: string;
}

export interface UsageReport {
  since: number;
  days: number;
  currency: string;
  keys: { id: string; name: string; status: string }[];
  data: UsageRow[];
}

export type ModelState = 'ready' | 'downloading' | 'failed' | 'not_loaded';

export interface DeploymentInfo {
  deployment: string;
  engine: string;
  /** The upstream's URL or the model file; null for account holders. */
  target: string | null;
  state: ModelState;
  progress: number | null;
  error: string | null;
  in_flight: number;
  waiting: number;
  /** Model codes whose calls this deployment's engine serves (its load is theirs together). */
  shared_by: number;
}

export interface ModelInfo extends Omit<DeploymentInfo, 'deployment' | 'engine' | 'target' | 'shared_by'> {
  code: string;
  type: 'chat' | 'image';
  deployments: DeploymentInfo[];
}

export interface IndexJob {
  id: string;
  kind: 'crawl' | 'import';
  source: string;
  collection: string | null;
  state: 'running' | 'done' | 'failed' | 'stopped';
  started_at: number;
  ended_at: number | null;
  indexed: number;
  failed: number;
  pending: number;
  messages: string[];
}

export interface IndexedDocument {
  url: string;
  title: string;
  site: string | null;
  collection: string;
  published: string | null;
  chars: number;
}

export interface SearchOverview {
  collections: { collection: string; documents: number }[];
  offset: number;
  documents: IndexedDocument[];
  jobs: IndexJob[];
}

export interface PlaygroundToken {
  token: string;
  key_id: string;
  expires_at: number;
}

export interface Balance {
  account_id: string;
  balance: string;
  reserved: string;
  available: string;
  currency: string;
}

export interface BudgetLimits {
  total: string | null;
  daily: string | null;
  monthly: string | null;
}

export interface BudgetInfo {
  scope: string;
  budget: BudgetLimits;
  spent: { total: string; day: string; month: string };
  reserved: string;
  currency: string;
  time_zone: string;
}

export interface BillingOverview extends Balance {
  budget: BudgetInfo | null;
  /** Whether anything is priced on this server. */
  priced: boolean;
}

export interface LedgerEntry {
  id: number;
  account_id: string;
  kind: 'credit' | 'debit' | 'redeem' | 'usage';
  amount: string;
  balance_after: string;
  currency: string;
  actor: string;
  note: string;
  ref: string | null;
  key_id: string | null;
  created_at: number;
}

export interface LedgerPage {
  data: LedgerEntry[];
  next_before: number | null;
}

export interface KeySpend {
  key_id: string;
  spent: { day: string; month: string; total: string };
  budget: BudgetLimits | null;
}

export interface AccountBalance extends Balance {
  id: string;
  name: string;
  email: string | null;
  disabled: boolean;
  budget: BudgetLimits | null;
}

export interface CodeBatch {
  id: string;
  amount: string;
  currency: string;
  count: number;
  redeemed: number;
  expires_at: number | null;
  note: string;
  created_by: string;
  created_at: number;
}

export interface RedemptionCode {
  code: string;
  redeemed_by: string | null;
  redeemed_at: number | null;
}

export interface PriceFields {
  input_per_million?: string;
  cached_input_per_million?: string;
  output_per_million?: string;
  per_image?: string;
  per_image_by?: Record<string, string>;
  per_call?: string;
}

export interface PriceInfo {
  code: string;
  price: PriceFields | null;
  source: 'config' | 'edited';
  configured: PriceFields | null;
  updated_at: number | null;
  updated_by: string | null;
}

/** One administrative act from the audit log; `at` is ISO 8601 UTC with milliseconds. */
export interface AuditRecord {
  id: number;
  at: string;
  actor: string;
  address: string | null;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
}

/** The audit log's filters, as its query string takes them; an empty one is left out. */
export interface AuditFilter {
  actor?: string;
  action?: string;
  since?: string;
  until?: string;
}

/** A refusal from the server, with the API's error code and message. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = '';
let onSignedOut: (reason: string) => void = () => {};

export function setSession(info: SessionInfo | undefined): void {
  csrfToken = info?.csrf_token ?? '';
}

/** Called when the server says the session is gone (expired, signed out elsewhere). */
export function whenSignedOut(handler: (reason: string) => void): void {
  onSignedOut = handler;
}

export async function readError(res: Response): Promise<ApiFailure> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    return new ApiFailure(res.status, body.error?.code ?? '', body.error?.message ?? text);
  } catch {
    return new ApiFailure(res.status, '', text || res.statusText);
  }
}

export async function consoleApi<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  /** A file sent as it is (a JSONL upload), instead of a JSON body. */
  upload?: { type: string; data: Blob },
): Promise<T> {
  const headers: Record<string, string> = {};
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (upload) headers['content-type'] = upload.type;
  const res = await fetch(`/console/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(upload ? { body: upload.data } : {}),
  });
  if (!res.ok) {
    const failure = await readError(res);
    if (res.status === 401 && path !== '/session') onSignedOut('Your session has expired. Please sign in again.');
    throw failure;
  }
  return (await res.json()) as T;
}

export const api = {
  session: () => consoleApi<SessionInfo>('GET', '/session'),
  signIn: (body: Record<string, string>) => consoleApi<SessionInfo>('POST', '/session', body),
  signOut: () => consoleApi<unknown>('DELETE', '/session'),
  keys: () => consoleApi<{ data: ConsoleKey[] }>('GET', '/keys').then((r) => r.data),
  createKey: (body: unknown) => consoleApi<ConsoleKey & { key: string }>('POST', '/keys', body),
  revokeKey: (id: string) => consoleApi<ConsoleKey>('POST', `/keys/${encodeURIComponent(id)}/revoke`),
  updateKey: (id: string, change: KeyChange) =>
    consoleApi<ConsoleKey>('PATCH', `/keys/${encodeURIComponent(id)}`, change),
  rollKey: (id: string, graceSeconds: number) =>
    consoleApi<ConsoleKey & { key: string }>('POST', `/keys/${encodeURIComponent(id)}/roll`, {
      grace_seconds: graceSeconds,
    }),
  accounts: () => consoleApi<{ data: Account[] }>('GET', '/accounts').then((r) => r.data),
  createAccount: (body: { name: string; email: string }) =>
    consoleApi<Account & { password: string }>('POST', '/accounts', body),
  accountPolicies: () => consoleApi<{ data: AccountPolicy[] }>('GET', '/accounts/policies').then((r) => r.data),
  setAccountPolicy: (id: string, change: AccountPolicyChange) =>
    consoleApi<AccountPolicy>('PATCH', `/accounts/${encodeURIComponent(id)}/policy`, change),
  disableAccount: (id: string) => consoleApi<Account>('POST', `/accounts/${encodeURIComponent(id)}/disable`),
  usage: (days: number) => consoleApi<UsageReport>('GET', `/usage?days=${days}`),
  billing: () => consoleApi<BillingOverview>('GET', '/billing'),
  ledger: (before?: number, account?: string) =>
    consoleApi<LedgerPage>(
      'GET',
      `/billing/ledger?${new URLSearchParams({
        ...(before === undefined ? {} : { before: String(before) }),
        ...(account ? { account } : {}),
      })}`,
    ),
  redeem: (code: string) => consoleApi<LedgerEntry>('POST', '/billing/redeem', { code }),
  keySpend: () => consoleApi<{ currency: string; time_zone: string; data: KeySpend[] }>('GET', '/billing/keys'),
  accountBalances: () => consoleApi<{ currency: string; data: AccountBalance[] }>('GET', '/billing/accounts'),
  credit: (account: string, amount: string, note: string) =>
    consoleApi<LedgerEntry>('POST', `/billing/accounts/${encodeURIComponent(account)}/credit`, { amount, note }),
  setBudget: (kind: 'keys' | 'accounts', id: string, budget: BudgetLimits) =>
    consoleApi<BudgetInfo>('POST', `/billing/${kind}/${encodeURIComponent(id)}/budget`, budget),
  codeBatches: () => consoleApi<{ data: CodeBatch[] }>('GET', '/billing/codes').then((r) => r.data),
  createCodes: (body: { amount: string; count: number; expires_at?: number; note?: string }) =>
    consoleApi<CodeBatch & { codes: string[] }>('POST', '/billing/codes', body),
  batchCodes: (id: string) =>
    consoleApi<{ data: RedemptionCode[] }>('GET', `/billing/codes/${encodeURIComponent(id)}`).then((r) => r.data),
  prices: () => consoleApi<{ currency: string; data: PriceInfo[] }>('GET', '/billing/prices'),
  setPrice: (code: string, price: PriceFields) =>
    consoleApi<PriceInfo>('POST', `/billing/prices/${encodeURIComponent(code)}`, price),
  resetPrice: (code: string) => consoleApi<unknown>('DELETE', `/billing/prices/${encodeURIComponent(code)}`),
  audit: (filter: AuditFilter, limit: number, before?: number) =>
    consoleApi<{ data: AuditRecord[] }>(
      'GET',
      `/audit?${new URLSearchParams({
        ...Object.fromEntries(Object.entries(filter).filter(([, v]) => v)),
        limit: String(limit),
        ...(before === undefined ? {} : { before: String(before) }),
      })}`,
    ).then((r) => r.data),
  models: () => consoleApi<{ data: ModelInfo[] }>('GET', '/models').then((r) => r.data),
  playgroundToken: () => consoleApi<PlaygroundToken>('POST', '/playground-token'),
  search: (collection: string, offset: number) =>
    consoleApi<SearchOverview>(
      'GET',
      `/search?${new URLSearchParams({ ...(collection ? { collection } : {}), offset: String(offset) })}`,
    ),
  crawl: (body: { url: string; max_pages?: number; depth?: number; collection?: string }) =>
    consoleApi<IndexJob>('POST', '/search/crawl', body),
  importJsonl: (file: File, collection: string) =>
    consoleApi<IndexJob>(
      'POST',
      `/search/import?${new URLSearchParams({ name: file.name.slice(0, 256), ...(collection ? { collection } : {}) })}`,
      undefined,
      { type: 'application/x-ndjson', data: file },
    ),
};

export const formatTime = (seconds: number | null): string =>
  seconds === null ? '—' : new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
