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
}

export interface Account {
  id: string;
  name: string;
  email: string;
  created_at: number;
  disabled_at: number | null;
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
}

export interface UsageReport {
  since: number;
  days: number;
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
  method: 'GET' | 'POST' | 'DELETE',
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
  accounts: () => consoleApi<{ data: Account[] }>('GET', '/accounts').then((r) => r.data),
  createAccount: (body: { name: string; email: string }) =>
    consoleApi<Account & { password: string }>('POST', '/accounts', body),
  disableAccount: (id: string) => consoleApi<Account>('POST', `/accounts/${encodeURIComponent(id)}/disable`),
  usage: (days: number) => consoleApi<UsageReport>('GET', `/usage?days=${days}`),
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
