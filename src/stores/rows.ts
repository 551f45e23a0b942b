import type { KeyLimits } from '../config/schema.js';
import type { Endpoint, KeyPolicy, KeyRecord, KeyRole, PreviousSecret, UsageTotals } from './types.js';

/** Row shapes shared by the SQL stores, and their mapping to records. */
export interface KeyRow {
  id: string;
  name: string;
  secret_hash: string;
  secret_encrypted: string;
  endpoints: string;
  role: string;
  limits: string | KeyLimits | null;
  created_at: number | string;
  revoked_at: number | string | null;
  policy?: string | KeyPolicy | null;
  previous_secret?: string | PreviousSecret | null;
}

const json = <T>(value: string | T | null | undefined): T | undefined =>
  value === null || value === undefined ? undefined : typeof value === 'string' ? (JSON.parse(value) as T) : value;

export function keyFromRow(row: KeyRow): KeyRecord {
  const limits = typeof row.limits === 'string' ? (JSON.parse(row.limits) as KeyLimits) : (row.limits ?? undefined);
  return {
    id: row.id,
    name: row.name,
    secretHash: row.secret_hash,
    secretEncrypted: row.secret_encrypted,
    endpoints: row.endpoints.split(',').filter(Boolean) as Endpoint[],
    role: row.role as KeyRole,
    limits,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? undefined : Number(row.revoked_at),
    ...optional('policy', json<KeyPolicy>(row.policy)),
    ...optional('previous', json<PreviousSecret>(row.previous_secret)),
  };
}

/** Absent rather than undefined, so that a key read back equals the one written. */
const optional = <K extends string, V>(name: K, value: V | undefined) =>
  (value === undefined ? {} : { [name]: value }) as Partial<Record<K, V>>;

/** A blank key whose settings a change fills in, to map them as a whole row is mapped. */
export const EMPTY_KEY: KeyRecord = {
  id: '',
  name: '',
  secretHash: '',
  secretEncrypted: '',
  endpoints: [],
  role: 'user',
  limits: undefined,
  createdAt: 0,
  revokedAt: undefined,
};

export function keyToParams(key: KeyRecord): unknown[] {
  return [
    key.id,
    key.name,
    key.secretHash,
    key.secretEncrypted,
    key.endpoints.join(','),
    key.role,
    key.limits === undefined ? null : JSON.stringify(key.limits),
    key.createdAt,
    key.revokedAt ?? null,
    key.policy === undefined ? null : JSON.stringify(key.policy),
    key.previous === undefined ? null : JSON.stringify(key.previous),
  ];
}

export interface UsageTotalsRow {
  operation: string;
  requests: number | string;
  errors: number | string;
  prompt_tokens: number | string | null;
  completion_tokens: number | string | null;
  cost: number | string | null;
}

export function totalsFromRows(rows: UsageTotalsRow[]): UsageTotals {
  const totals: UsageTotals = {
    requests: 0,
    errors: 0,
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    cost: 0,
    byOperation: {},
  };
  for (const row of rows) {
    const requests = Number(row.requests);
    const promptTokens = Number(row.prompt_tokens ?? 0);
    const completionTokens = Number(row.completion_tokens ?? 0);
    const cost = Number(row.cost ?? 0);
    totals.requests += requests;
    totals.cost += cost;
    totals.errors += Number(row.errors);
    totals.promptTokens += promptTokens;
    totals.completionTokens += completionTokens;
    totals.byOperation[row.operation] = { requests, promptTokens, completionTokens, cost };
  }
  totals.totalTokens = totals.promptTokens + totals.completionTokens;
  return totals;
}

export const USAGE_TOTALS_SELECT = `SELECT operation, COUNT(*) AS requests,
  SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END) AS errors,
  SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens, SUM(cost) AS cost
  FROM usage_records`;
