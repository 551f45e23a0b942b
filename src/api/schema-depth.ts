import { invalidField } from '../errors/errors.js';

/**
 * How deep a JSON schema a client sends (a tool's `parameters`) may nest. Chat templates and
 * grammar builders walk these schemas recursively; real tools nest a handful of levels.
 */
export const MAX_SCHEMA_DEPTH = 32;

/** Depth of nested objects and arrays in `value`, stopping as soon as it passes `limit`. */
function deeperThan(value: unknown, limit: number): boolean {
  // Iterative: the check itself must not recurse on what it is bounding.
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

type ToolLike = object & { function?: { parameters?: unknown }; parameters?: unknown };

/** 1214 for a tool whose `parameters` schema nests deeper than MAX_SCHEMA_DEPTH (chat and Responses shapes). */
export function checkToolSchemas(tools: readonly object[] | undefined): void {
  for (const [i, tool] of ((tools ?? []) as readonly ToolLike[]).entries()) {
    const nested = tool.function !== undefined;
    const parameters = nested ? tool.function?.parameters : tool.parameters;
    if (parameters !== undefined && deeperThan(parameters, MAX_SCHEMA_DEPTH)) {
      const field = nested ? `tools[${i}].function.parameters` : `tools[${i}].parameters`;
      throw invalidField(field, `a schema may nest at most ${MAX_SCHEMA_DEPTH} levels deep`);
    }
  }
}
