import type { AccountRecord, DailyUsageRow, SessionRecord } from './accounts.js';

/** Row shapes of the console's tables, shared by the SQL stores, and their mapping to records. */
export interface AccountRow {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  created_at: number | string;
  disabled_at: number | string | null;
}

export const accountFromRow = (row: AccountRow): AccountRecord => ({
  id: row.id,
  name: row.name,
  email: row.email,
  passwordHash: row.password_hash,
  createdAt: Number(row.created_at),
  disabledAt: row.disabled_at === null ? undefined : Number(row.disabled_at),
});

export const accountToParams = (a: AccountRecord): unknown[] => [
  a.id,
  a.name,
  a.email,
  a.passwordHash,
  a.createdAt,
  a.disabledAt ?? null,
];

export interface SessionRow {
  id_hash: string;
  account_id: string | null;
  admin_key_id: string | null;
  csrf_token: string;
  created_at: number | string;
  expires_at: number | string;
}

export const sessionFromRow = (row: SessionRow): SessionRecord => ({
  idHash: row.id_hash,
  accountId: row.account_id ?? undefined,
  adminKeyId: row.admin_key_id ?? undefined,
  csrfToken: row.csrf_token,
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
});

export const sessionToParams = (s: SessionRecord): unknown[] => [
  s.idHash,
  s.accountId ?? null,
  s.adminKeyId ?? null,
  s.csrfToken,
  s.createdAt,
  s.expiresAt,
];

export interface DailyRow {
  day: number | string;
  key_id: string;
  model: string | null;
  requests: number | string;
  errors: number | string;
  prompt_tokens: number | string | null;
  completion_tokens: number | string | null;
  cost: number | string | null;
}

export const DAY_MS = 86_400_000;

export const dailyFromRow = (row: DailyRow): DailyUsageRow => ({
  day: Number(row.day) * DAY_MS,
  keyId: row.key_id,
  model: row.model ?? '',
  requests: Number(row.requests),
  errors: Number(row.errors),
  promptTokens: Number(row.prompt_tokens ?? 0),
  completionTokens: Number(row.completion_tokens ?? 0),
  cost: Number(row.cost ?? 0),
});

/** The daily query's columns after SELECT; `day` is the whole number of days since the epoch. */
export const DAILY_COLUMNS = `key_id, COALESCE(model, '') AS model, COUNT(*) AS requests,
  SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END) AS errors,
  SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens, SUM(cost) AS cost`;
