import { createUpstreamAgent } from '../../../net/upstream-agent.js';
import type { CancelSignal } from '../../../util/cancel-signal.js';
import { upstreamFailure } from '../../upstream-errors.js';
import { checkJsonReply } from '../json-reply-check.js';
import type { ChatEngine, ChatRequest, ChatStreamPart } from '../types.js';
import { type OpenAICompatibleOptions, resolveOptions } from './options.js';
import { buildChatBody } from './request-body.js';
import { UpstreamTokenizer } from './tokenize.js';
import { type CallTarget, UpstreamCall } from './upstream-call.js';

/**
 * A chat engine backed by an OpenAI-style `/chat/completions` server: vLLM, SGLang, Ollama's `/v1`,
 * llama.cpp server, LocalAI or a hosted API. Differences between them are options, never name checks.
 */
export function createOpenAICompatibleEngine(options: OpenAICompatibleOptions): ChatEngine {
  const resolved = resolveOptions(options);
  const agent = createUpstreamAgent(resolved);
  const target = (stream: boolean): CallTarget => ({
    options: resolved,
    agent,
    origin: resolved.origin,
    path: resolved.chatPath,
    headers: { ...resolved.headers, accept: stream ? 'text/event-stream' : 'application/json' },
    stream,
  });
  const streamed = target(resolved.stream);
  // A client that takes the reply whole gets it from one JSON reply upstream: no stream to parse
  // and fold. The parts are the same.
  const whole = target(false);
  const tokenizer = new UpstreamTokenizer(resolved, agent);

  return {
    capabilities: resolved.capabilities,
    generate: (request: ChatRequest, signal: CancelSignal): AsyncIterable<ChatStreamPart> => {
      const call = request.stream === false ? whole : streamed;
      const parts = new UpstreamCall(
        call,
        buildChatBody(resolved, request, call.stream),
        request.maxTokens,
        signal,
        request.traceparent,
        request.onPrompt,
      );
      // The upstream may still answer plain text: the reply is checked, never passed on as JSON mode.
      return request.responseFormat === 'json_object'
        ? checkJsonReply(parts, (what) => upstreamFailure(resolved, what, { phase: 'json-mode' }))
        : parts;
    },
    countTokens: (messages, tools, signal) =>
      resolved.tokenizeUrl === undefined && options.tokenCounter
        ? options.tokenCounter.count(messages, tools, resolved.capabilities.thinking, signal)
        : tokenizer.count(messages, tools, signal),
    // undici counts them already: read at scrape time, nothing is counted per request.
    stats: () => {
      const pool = agent.stats[resolved.origin];
      return { inFlight: pool?.running ?? 0, waiting: pool?.pending ?? 0, healthy: true };
    },
    close: async () => {
      await options.tokenCounter?.close?.();
      await agent.close();
    },
  };
}
