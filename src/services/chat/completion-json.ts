import type { ChatCompletion, WireUsage } from './wire-types.js';

/**
 * The JSON text of a folded reply, byte for byte what `JSON.stringify` makes of it: the constant
 * keys are written as text and only the values are serialised, which in the server costs less than
 * serialising the whole object graph, and the edge sends the text as it is.
 */
export function completionJson(c: ChatCompletion): string {
  const search = c.web_search === undefined ? '' : `,"web_search":${JSON.stringify(c.web_search)}`;
  return `{"id":${JSON.stringify(c.id)},"request_id":${JSON.stringify(c.request_id)},"created":${JSON.stringify(c.created)},"object":"chat.completion","model":${JSON.stringify(c.model)},"choices":${JSON.stringify(c.choices)},"usage":${usageJson(c.usage)}${search}}`;
}

function usageJson(u: WireUsage): string {
  return `{"prompt_tokens":${JSON.stringify(u.prompt_tokens)},"completion_tokens":${JSON.stringify(u.completion_tokens)},"total_tokens":${JSON.stringify(u.total_tokens)},"prompt_tokens_details":{"cached_tokens":${JSON.stringify(u.prompt_tokens_details.cached_tokens)}},"completion_tokens_details":{"reasoning_tokens":${JSON.stringify(u.completion_tokens_details.reasoning_tokens)}}}`;
}
