import { type RecordedRequest, type Reply, sseEvents } from './replay-server.js';

/** Stands in for the served model's tokenizer: the same count for /tokenize and for usage. */
const promptTokensOf = (body: Record<string, unknown>): number =>
  Math.ceil(JSON.stringify([body['messages'], body['tools'] ?? []]).length / 4);

/** vLLM's recorded shapes, with usage.prompt_tokens recomputed for the request like a real server. */
export function vllmLike(request: RecordedRequest): Reply {
  if (request.path === '/tokenize') {
    return {
      contentType: 'application/json',
      pieces: [JSON.stringify({ count: promptTokensOf(request.body), max_model_len: 32768, tokens: [] })],
    };
  }
  const fixture = Array.isArray(request.body['tools']) ? 'vllm-tool-calls.sse' : 'vllm-reasoning.sse';
  const pieces = sseEvents(fixture).map((event) => {
    if (!event.includes('"usage"')) return event;
    const chunk = JSON.parse(event.slice('data: '.length)) as { usage: { prompt_tokens: number } };
    chunk.usage.prompt_tokens = promptTokensOf(request.body);
    return `data: ${JSON.stringify(chunk)}\n\n`;
  });
  return { pieces, delayMs: 5 };
}
