import { Agent, type Dispatcher } from 'undici';
import { describeCause, statusError, upstreamFailure } from '../../upstream-errors.js';
import type { ResolvedOptions } from './options.js';
import { ReplyBoundError } from './reply-bounds.js';

export function createAgent(options: ResolvedOptions): Agent {
  return new Agent({
    connections: options.connections,
    // One request per connection at a time: a generation holds its connection for seconds, and an
    // abort must be able to close exactly that request's socket.
    pipelining: 1,
    // Under uvicorn's 5 s idle close (vLLM, SGLang): reusing a socket the server is closing fails a
    // POST that undici may not retry.
    keepAliveTimeout: 4_000,
    connect: { timeout: options.connectMs },
    headersTimeout: options.headersMs,
    bodyTimeout: options.idleMs,
  });
}

/**
 * POSTs a JSON body and returns the 2xx response with its body unread. Connection failures become
 * 1234, non-2xx answers 1234 or 1261; an abort rethrows the signal's reason untouched.
 */
export async function postJson(
  options: ResolvedOptions,
  agent: Agent,
  target: { origin: string; path: string },
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  let response: Dispatcher.ResponseData;
  try {
    response = await agent.request({ origin: target.origin, path: target.path, method: 'POST', headers, body, signal });
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw upstreamFailure(
      options,
      `cannot reach the upstream (${describeCause(err)})`,
      { phase: 'request', target: target.path },
      err,
    );
  }
  if (response.statusCode >= 200 && response.statusCode < 300) return response;
  let text: string;
  try {
    // An error answer says what it has to say early: the rest of a huge one is not read.
    text = await readText(response.body, 64 * 1024, true);
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw upstreamFailure(options, `upstream answered HTTP ${response.statusCode}`, { phase: 'error-body' }, err);
  }
  throw statusError(options, response.statusCode, text);
}

/**
 * A body as text, never more than `max` bytes of it: past that it throws a ReplyBoundError naming
 * limits.max_json_bytes, or with `truncate` returns what came first. The socket is let go either way.
 */
export async function readText(body: Dispatcher.ResponseData['body'], max: number, truncate = false): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      if (!truncate) throw new ReplyBoundError(`the JSON reply exceeded ${max} bytes (limits.max_json_bytes)`);
      chunks.push(chunk.subarray(0, chunk.length - (size - max)));
      break;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
