import type { TSchema } from '@sinclair/typebox';

/**
 * What the SDKs send that means "absent": the official Python SDK sends `"thinking": null`,
 * `"response_format": null`, and OpenAI-style round trips send `"content": null` on assistant
 * messages with tool calls (docs/wire.md, "Null handling"). Nulls are dropped at the top level and inside
 * messages, tools and Responses input items; a tool without `type` is a function tool (the spec's
 * default), an input item with a `role` and no `type` a message.
 */
function dropNulls(obj: Record<string, unknown>): void {
  for (const key of Object.keys(obj)) if (obj[key] === null) delete obj[key];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * Numbers that SDKs type as strings (the Python SDK's reader sends `"timeout": "20"`) become numbers
 * where the schema plainly wants a number (through objects and arrays, not unions); nothing else
 * is retyped.
 */
function coerceNumbers(value: unknown, schema: TSchema | undefined): unknown {
  // Runs on every request body: leaves are settled before the schema is read, and a value is only
  // written back when it changed (each read or write here sees objects of many shapes).
  if (schema === undefined) return value;
  if (typeof value === 'string') {
    if (!NUMBER.test(value)) return value;
    const type = schema['type'];
    return type === 'integer' || type === 'number' ? Number(value) : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const type = schema['type'];
  if (type === 'array' && Array.isArray(value)) {
    const items = schema['items'] as TSchema | undefined;
    if (items === undefined) return value;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const coerced = coerceNumbers(item, items);
      if (coerced !== item) value[i] = coerced;
    }
  } else if (type === 'object' && !Array.isArray(value) && !schema['oneOf']) {
    const properties = schema['properties'] as Record<string, TSchema> | undefined;
    if (properties === undefined) return value;
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const field = object[key];
      const coerced = coerceNumbers(field, properties[key]);
      if (coerced !== field) object[key] = coerced;
    }
  }
  return value;
}

export function normalizeBody(body: unknown, schema?: TSchema): void {
  if (!isObject(body)) return;
  dropNulls(body);
  coerceNumbers(body, schema);
  if (Array.isArray(body['messages'])) for (const m of body['messages']) if (isObject(m)) dropNulls(m);
  // The Responses API's items: a message may leave out its `type` (the SDKs' "easy" input message).
  if (Array.isArray(body['input'])) {
    for (const item of body['input']) {
      if (!isObject(item)) continue;
      dropNulls(item);
      if (item['type'] === undefined && item['role'] !== undefined) item['type'] = 'message';
      if (Array.isArray(item['content'])) for (const part of item['content']) if (isObject(part)) dropNulls(part);
    }
  }
  if (Array.isArray(body['tools'])) {
    for (const t of body['tools']) {
      if (!isObject(t)) continue;
      dropNulls(t);
      if (t['type'] === undefined && t['function'] !== undefined) t['type'] = 'function';
    }
  }
}
