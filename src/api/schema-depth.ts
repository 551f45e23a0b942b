import { invalidField } from '../errors/errors.js';

/**
 * How deep a JSON schema a client sends (a tool's `parameters`, Anthropic's `input_schema`, the
 * Responses `text.format.schema`) may nest. Chat templates and grammar builders walk these schemas
 * recursively; real tools nest a handful of levels.
 */
export const MAX_SCHEMA_DEPTH = 32;

/** A step of the path to a value: an object's key or an array's index. */
type Step = { key: string | number; up: Step | undefined };

/**
 * The path (below `value`) to the first object or array nested deeper than `limit`, or undefined
 * when none is. Iterative: the check itself must not recurse on what it is bounding.
 */
export function tooDeepAt(value: unknown, limit: number): (string | number)[] | undefined {
  const stack: [unknown, number, Step | undefined][] = [[value, 1, undefined]];
  while (stack.length > 0) {
    const [v, depth, at] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > limit) {
      const path: (string | number)[] = [];
      for (let s = at; s !== undefined; s = s.up) path.push(s.key);
      return path.reverse();
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        if (typeof child === 'object' && child !== null) stack.push([child, depth + 1, { key: i, up: at }]);
      }
    } else {
      for (const key of Object.keys(v)) {
        const child: unknown = (v as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) stack.push([child, depth + 1, { key, up: at }]);
      }
    }
  }
  return undefined;
}

/** 1214 naming `field` when the schema at it nests deeper than MAX_SCHEMA_DEPTH. */
export function checkSchemaDepth(schema: unknown, field: string): void {
  if (schema !== undefined && tooDeepAt(schema, MAX_SCHEMA_DEPTH) !== undefined)
    throw invalidField(field, `a schema may nest at most ${MAX_SCHEMA_DEPTH} levels deep`);
}

type ToolLike = object & {
  type?: unknown;
  function?: { parameters?: unknown };
  parameters?: unknown;
  input_schema?: unknown;
  tools?: unknown;
};

/**
 * 1214 for a tool whose schema nests deeper than MAX_SCHEMA_DEPTH: chat's `function.parameters`,
 * the Responses API's flat `parameters` (and those of a namespace's tools), Anthropic's `input_schema`.
 */
export function checkToolSchemas(tools: readonly object[] | undefined, at = 'tools'): void {
  for (const [i, tool] of ((tools ?? []) as readonly ToolLike[]).entries()) {
    const field = `${at}[${i}]`;
    if (tool.function !== undefined) checkSchemaDepth(tool.function.parameters, `${field}.function.parameters`);
    checkSchemaDepth(tool.parameters, `${field}.parameters`);
    checkSchemaDepth(tool.input_schema, `${field}.input_schema`);
    if (tool.type === 'namespace' && Array.isArray(tool.tools))
      checkToolSchemas(tool.tools as object[], `${field}.tools`);
  }
}
