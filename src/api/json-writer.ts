import type { TSchema } from '@sinclair/typebox';

/**
 * JSON written from a reply schema, the bytes Fastify's serializer (fast-json-stringify) writes for
 * the same schema and value: required properties, then optional ones, each in the schema's order;
 * an optional one left out when undefined, a closed object's unknown fields dropped, a map's keys
 * kept when they match its key pattern. Only what reply schemas of large payloads use is supported (objects, maps, strings,
 * integers, numbers, booleans, constants); anything else is refused when the writer is built.
 *
 * It exists for the places where the compiled serializer does not fit: an extraction thread (the
 * compiler and ajv add ~20 MB to every thread that loads them), and a reply around a part that is
 * already JSON bytes (`RawJson`), which a serializer would parse and write again on the event loop.
 * test/api/json-writer.test.ts holds it to fast-json-stringify, over the reader's real pages too.
 */

/** A value already written as JSON (UTF-8), put into the output as it is. */
export class RawJson {
  constructor(readonly bytes: Uint8Array) {}
}

/** The output: strings, with the bytes of `RawJson` values between them. */
type Chunks = (string | Uint8Array)[];
type Write = (value: unknown, out: Chunks) => void;

interface SchemaNode {
  type?: string;
  const?: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  patternProperties?: Record<string, SchemaNode>;
}

function push(out: Chunks, text: string): void {
  const last = out.length - 1;
  if (typeof out[last] === 'string') out[last] += text;
  else out.push(text);
}

function compile(schema: SchemaNode, at: string): Write {
  const write = compileValue(schema, at);
  return (value, out) => {
    if (value instanceof RawJson) out.push(value.bytes);
    else write(value, out);
  };
}

function compileValue(schema: SchemaNode, at: string): Write {
  if (schema.properties) return objectWriter(schema.properties, new Set(schema.required ?? []), at);
  if (schema.patternProperties) return mapWriter(schema.patternProperties, at);
  switch (schema.type) {
    case 'string':
      return (value, out) => push(out, JSON.stringify(schema.const ?? String(value)));
    case 'integer':
      return (value, out) => push(out, String(Number.isInteger(value) ? value : Math.trunc(Number(value))));
    case 'number':
      return (value, out) => push(out, String(Number(value)));
    case 'boolean':
      return (value, out) => push(out, value ? 'true' : 'false');
    default:
      throw new Error(`json-writer: ${at} has a schema it does not write (${JSON.stringify(schema)})`);
  }
}

function objectWriter(properties: Record<string, SchemaNode>, required: Set<string>, at: string): Write {
  // Required properties first, each group in the schema's order, as the serializer writes them.
  const keys = Object.keys(properties);
  const ordered = [...keys.filter((key) => required.has(key)), ...keys.filter((key) => !required.has(key))];
  const fields = ordered.map((key) => ({
    key,
    head: `${JSON.stringify(key)}:`,
    write: compile(properties[key] as SchemaNode, `${at}.${key}`),
  }));
  return (value, out) => {
    const object = value as Record<string, unknown>;
    let first = true;
    push(out, '{');
    for (const field of fields) {
      const item = object[field.key];
      if (item === undefined) {
        if (required.has(field.key)) throw new Error(`"${field.key}" is required!`);
        continue;
      }
      push(out, first ? field.head : `,${field.head}`);
      first = false;
      field.write(item, out);
    }
    push(out, '}');
  };
}

function mapWriter(patterns: Record<string, SchemaNode>, at: string): Write {
  const rules = Object.entries(patterns).map(([pattern, schema]) => ({
    pattern: new RegExp(pattern),
    write: compile(schema, `${at}[${pattern}]`),
  }));
  return (value, out) => {
    const object = value as Record<string, unknown>;
    let first = true;
    push(out, '{');
    for (const key of Object.keys(object)) {
      const item = object[key];
      const rule = rules.find((candidate) => candidate.pattern.test(key));
      if (item === undefined || !rule) continue;
      push(out, first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
      first = false;
      rule.write(item, out);
    }
    push(out, '}');
  };
}

/** A writer of `schema`'s values as JSON text. */
export function jsonWriter<T>(schema: TSchema): (value: T) => string {
  const write = compile(schema as SchemaNode, '#');
  return (value) => {
    const out: Chunks = [];
    write(value, out);
    if (out.length !== 1 || typeof out[0] !== 'string') throw new Error('json-writer: RawJson needs jsonBytesWriter');
    return out[0];
  };
}

/** A writer of `schema`'s values as UTF-8 JSON, where a `RawJson` value goes in as its bytes. */
export function jsonBytesWriter<T>(schema: TSchema): (value: T) => Buffer {
  const write = compile(schema as SchemaNode, '#');
  return (value) => {
    const out: Chunks = [];
    write(value, out);
    return Buffer.concat(out.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
  };
}
