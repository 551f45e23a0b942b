/**
 * What an audit record must never hold, removed before it is written: fields whose name says they
 * carry a credential, and any string shaped like an API key (`<id>.<secret>`) or a signed token.
 * The callers never pass secrets; this is the net under them.
 */
const SECRET_FIELD = /secret|password|passwd|token|hash|csrf|cookie|authorization|^key$|^api_key$/i;
const KEY_SHAPED = /[0-9a-f]{32}\.[A-Za-z0-9_-]{16,}|eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g;
/** A field named for when something ends (`previous_secret_until`, `token_expires_at`) holds a time. */
const TIME_FIELD = /(_until|_at)$/i;
export const REDACTED = '[redacted]';

/** Whether a field's value is removed: its name says credential, unless it names a time and holds one. */
const secretField = (name: string, value: unknown): boolean =>
  SECRET_FIELD.test(name) && !(TIME_FIELD.test(name) && (typeof value === 'number' || value === null));

/** Longest text kept of one string value; an audit record states what changed, not bulk content. */
const MAX_STRING = 2048;
const MAX_DEPTH = 8;
const MAX_ITEMS = 200;

export function redact(value: unknown, depth = 0): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    const clean = value.replace(KEY_SHAPED, REDACTED);
    return clean.length > MAX_STRING ? `${clean.slice(0, MAX_STRING)}…` : clean;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => redact(v, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`… ${value.length - MAX_ITEMS} more`);
    return items;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      out[name] = secretField(name, v) ? REDACTED : redact(v, depth + 1);
    }
    return out;
  }
  return String(value);
}
