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

export async function consoleApi<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`/console/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
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
};

export const formatTime = (seconds: number | null): string =>
  seconds === null ? '—' : new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
