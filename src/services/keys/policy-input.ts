import { POLICY_BOUNDS } from '../../api/key-policy.js';
import { invalidField } from '../../errors/errors.js';
import type { KeyPolicy } from '../../stores/types.js';
import { parseRfc3339 } from '../../util/rfc3339.js';
import { cidrProblem, MODEL_PATTERN } from './key-policy.js';

/** A key's policy as the CLI, `/admin` and the console give it; a field left out keeps its value, null clears it. */
export interface PolicyInput {
  models?: string[] | null | undefined;
  /** Unix seconds, or an RFC 3339 time (`2026-12-31T00:00:00Z`). */
  expires_at?: number | string | null | undefined;
  allowed_ips?: string[] | null | undefined;
  description?: string | null | undefined;
}

const modelPattern = new RegExp(MODEL_PATTERN);

/** `expires_at` as Unix ms; throws 1214 naming the field and the rule. */
export function parseExpiry(value: number | string): number {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > 253_402_300_799) {
      throw invalidField('expires_at', 'must be Unix seconds (an integer from 0 to 253402300799) or an RFC 3339 time');
    }
    return value * 1000;
  }
  const at = parseRfc3339(value);
  if (Number.isNaN(at))
    throw invalidField(
      'expires_at',
      `must be an RFC 3339 time such as 2026-12-31T00:00:00Z, got ${JSON.stringify(value)}`,
    );
  return at;
}

function list(field: string, value: string[], check: (item: string) => string | undefined): string[] {
  if (value.length > POLICY_BOUNDS.listItems) throw invalidField(field, `at most ${POLICY_BOUNDS.listItems} entries`);
  const items = [...new Set(value.map((v) => v.trim()).filter(Boolean))];
  for (const item of items) {
    if (item.length > POLICY_BOUNDS.itemLength)
      throw invalidField(field, `entries are at most ${POLICY_BOUNDS.itemLength} characters`);
    const problem = check(item);
    if (problem) throw invalidField(field, problem);
  }
  return items;
}

/** A list of model codes or patterns, trimmed and without repeats; throws 1214 naming `field`. */
export const modelList = (field: string, value: string[]): string[] =>
  list(field, value, (m) =>
    modelPattern.test(m) ? undefined : `${JSON.stringify(m)} is not a model code or a pattern such as gen-4.5*`,
  );

/** The policy `input` makes of `base`; undefined when nothing is left in it. Throws 1214 on bad input. */
export function applyPolicy(base: KeyPolicy | undefined, input: PolicyInput): KeyPolicy | undefined {
  const next: KeyPolicy = { ...base };
  if (input.models !== undefined) {
    next.models = modelList('models', input.models ?? []);
  }
  if (input.expires_at !== undefined)
    next.expiresAt = input.expires_at === null ? undefined : parseExpiry(input.expires_at);
  if (input.allowed_ips !== undefined) next.allowedIps = list('allowed_ips', input.allowed_ips ?? [], cidrProblem);
  if (input.description !== undefined) {
    const text = (input.description ?? '').trim();
    if (text.length > POLICY_BOUNDS.description) {
      throw invalidField('description', `at most ${POLICY_BOUNDS.description} characters`);
    }
    next.description = text;
  }
  const policy: KeyPolicy = {};
  if (next.models?.length) policy.models = next.models;
  if (next.expiresAt !== undefined) policy.expiresAt = next.expiresAt;
  if (next.allowedIps?.length) policy.allowedIps = next.allowedIps;
  if (next.description) policy.description = next.description;
  return Object.keys(policy).length === 0 ? undefined : policy;
}

/** Splits a comma-separated CLI list (`gen-4.6,gen-4.5*`). */
export const splitList = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
