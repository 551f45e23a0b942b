import type { Dispatcher } from 'undici';
import type { ChatEngine, ChatRequest, ChatStreamPart } from '../types.js';
import { createAgent, postJson } from './http.js';
import { type OpenAICompatibleOptions, resolveOptions } from './options.js';
import { relaySse, relayWhole } from './relay.js';
import { buildChatBody } from './request-body.js';
import { countTokensUpstream } from './tokenize.js';
import { upstreamFailure } from './upstream-errors.js';

/** The start of an unexpected body (a proxy's error page), for the log. */
async function bodySnippet(body: Dispatcher.ResponseData['body']): Promise<string> {
  try {
    return (await body.text()).slice(0, 1_000);
  } catch (err) {
    return `(unreadable: ${String(err)})`;
  }
}

/**
 * A chat engine backed by an OpenAI-style `/chat/completions` server: vLLM, SGLang, Ollama's `/v1`,
 * llama.cpp server, LocalAI or a hosted API. Differences between them are options, never name checks.
 */
export function createOpenAICompatibleEngine(options: OpenAICompatibleOptions): ChatEngine {
  const resolved = resolveOptions(options);
  const agent = createAgent(resolved);
  const target = { origin: resolved.origin, path: resolved.chatPath };
  const headers = { ...resolved.headers, accept: resolved.stream ? 'text/event-stream' : 'application/json' };

  async function* generate(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatStreamPart> {
    signal.throwIfAborted();
    const body = buildChatBody(resolved, request);
    const response = await postJson(resolved, agent, target, headers, body, signal);
    const contentType = response.headers['content-type'];
    const type = typeof contentType === 'string' ? contentType : '';
    if (type.includes('text/event-stream')) {
      yield* relaySse(resolved, response.body, signal);
    } else if (type.includes('json') || !resolved.stream) {
      yield* relayWhole(resolved, response, signal);
    } else {
      throw upstreamFailure(resolved, `unexpected content type ${type || '(none)'}`, {
        phase: 'headers',
        body: await bodySnippet(response.body),
      });
    }
  }

  return {
    capabilities: resolved.capabilities,
    generate,
    countTokens: (messages, tools) => countTokensUpstream(resolved, agent, messages, tools),
    close: () => agent.close(),
  };
}
