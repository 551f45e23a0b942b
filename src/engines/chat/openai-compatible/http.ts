import type { Dispatcher } from 'undici';
import { failedOnStaleConnection, freshConnection } from '../../../net/upstream-agent.js';
import { abortSignalOf, type CancelSignal } from '../../../util/cancel-signal.js';
import { statusError, upstreamFailure } from '../../upstream-errors.js';
import type { ResolvedOptions } from './options.js';
import { ReplyBoundError, transportCause } from './reply-bounds.js';

/**
 * POSTs a JSON body and returns the 2xx response with its body unread. Connection failures become
 * 1234, non-2xx answers 1234 or 1261; an abort rethrows the signal's reason untouched.
 */
export async function postJson(
  options: ResolvedOptions,
  agent: Dispatcher,
  target: { origin: string; path: string },
  headers: Record<string, string>,
  body: string,
  signal: CancelSignal,
): Promise<Dispatcher.ResponseData> {
  const request = {
    origin: target.origin,
    path: target.path,
    method: 'POST' as const,
    headers,
    body,
    signal: abortSignalOf(signal),
  };
  let response: Dispatcher.ResponseData;
  try {
    response = await agent.request(request);
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    if (!failedOnStaleConnection(err)) throw unreachable(options, target.path, err);
    // The upstream had closed the idle connection: the request never reached it. Once more, anew.
    const fresh = freshConnection(options, target.origin);
    try {
      response = await fresh.request(request);
    } catch (retryErr) {
      if (signal.aborted) throw signal.reason;
      throw unreachable(options, target.path, retryErr);
    } finally {
      void fresh.close();
    }
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

function unreachable(options: ResolvedOptions, path: string, err: unknown) {
  return upstreamFailure(
    options,
    `cannot reach the upstream (${transportCause(options, err)})`,
    { phase: 'request', target: path },
    err,
  );
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
