import type { Agent } from 'undici';
import { unsupportedCall } from '../../../errors/errors.js';
import { upstreamFailure } from '../../upstream-errors.js';
import type { ChatMessage, FunctionTool } from '../types.js';
import { postJson, readText } from './http.js';
import type { ResolvedOptions } from './options.js';
import { transportCause } from './reply-bounds.js';
import { promptFields } from './request-body.js';

/**
 * Counts with vLLM's `POST /tokenize`, which applies the served model's chat template to messages and
 * tools. Thinking is counted as on, the API's default, so that the count equals a chat call's
 * `prompt_tokens` for the same messages.
 */
export async function countTokensUpstream(
  options: ResolvedOptions,
  agent: Agent,
  messages: ChatMessage[],
  tools: FunctionTool[],
): Promise<number> {
  const url = options.tokenizeUrl;
  if (url === undefined) {
    throw unsupportedCall(
      `No tokenizer is configured for upstream model ${options.model}: set its tokenize_url (vLLM's /tokenize) or a tokenizer (a Hugging Face tokenizer.json) to count tokens`,
    );
  }
  const body = promptFields(options, messages, tools, options.capabilities.thinking);
  body['add_generation_prompt'] = true;
  const signal = AbortSignal.timeout(options.headersMs);
  const response = await postJson(
    options,
    agent,
    { origin: url.origin, path: url.pathname + url.search },
    options.headers,
    JSON.stringify(body),
    signal,
  );
  let parsed: { count?: unknown; tokens?: unknown };
  try {
    parsed = JSON.parse(await readText(response.body, options.limits.maxJsonBytes)) as {
      count?: unknown;
      tokens?: unknown;
    };
  } catch (err) {
    throw upstreamFailure(
      options,
      `unreadable /tokenize reply (${transportCause(options, err)})`,
      { phase: 'tokenize' },
      err,
    );
  }
  if (typeof parsed.count === 'number' && Number.isInteger(parsed.count) && parsed.count >= 0) return parsed.count;
  if (Array.isArray(parsed.tokens)) return parsed.tokens.length;
  throw upstreamFailure(options, '/tokenize reply without a count', { phase: 'tokenize', reply: parsed });
}
