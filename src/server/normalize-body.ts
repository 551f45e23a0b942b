/**
 * What the SDKs send that means "absent": the official Python SDK sends `"thinking": null`,
 * `"response_format": null`, and OpenAI-style round trips send `"content": null` on assistant
 * messages with tool calls (decisions.md §1). Nulls are dropped at the top level and inside
 * messages and tools; a tool without `type` is a function tool (the spec's default).
 */
function dropNulls(obj: Record<string, unknown>): void {
  for (const key of Object.keys(obj)) if (obj[key] === null) delete obj[key];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function normalizeBody(body: unknown): void {
  if (!isObject(body)) return;
  dropNulls(body);
  if (Array.isArray(body['messages'])) for (const m of body['messages']) if (isObject(m)) dropNulls(m);
  if (Array.isArray(body['tools'])) {
    for (const t of body['tools']) {
      if (!isObject(t)) continue;
      dropNulls(t);
      if (t['type'] === undefined && t['function'] !== undefined) t['type'] = 'function';
    }
  }
}
