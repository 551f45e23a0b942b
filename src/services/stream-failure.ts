/**
 * The one rule for a stream that fails (docs/wire.md, "SSE framing"), for every operation that
 * streams (chat, agents):
 * - before its first chunk, the error propagates: the edge has not sent the 200 yet and answers it
 *   as a JSON error with its own status (server/event-stream.ts awaits the first chunk for that);
 * - after it, the failure is logged and the stream ends with one last chunk whose `finish_reason`
 *   is `network_error`, then `data: [DONE]`;
 * - a stream whose source ran out without saying it finished ends the same way;
 * - once the client has gone away nothing more is sent and nothing is logged as a failure.
 */

export type StreamFailureLog = (err: unknown, message: string) => void;

/** The `finish_reason` of the last chunk of a stream that failed after its first chunk. */
export const FAILED_STREAM_REASON = 'network_error';

/** Where the stream stands when its source fails or ends. */
export interface StreamProgress {
  /** A chunk has gone out (the 200 is sent). */
  sent: boolean;
  /** The client went away. */
  cancelled: boolean;
}

/**
 * After the source threw `err`: rethrows before the first chunk; otherwise logs and returns the
 * last chunk (`lastChunk` makes it with the `network_error` reason), or undefined once the client
 * has gone away.
 */
export function chunkAfterFailure<T>(
  err: unknown,
  progress: StreamProgress,
  log: StreamFailureLog,
  lastChunk: (reason: typeof FAILED_STREAM_REASON) => T,
): T | undefined {
  if (!progress.sent) throw err;
  if (progress.cancelled) return undefined;
  log(err, 'stream failed after its first chunk');
  return lastChunk(FAILED_STREAM_REASON);
}

/**
 * After the source ended without its finish: the `network_error` last chunk, or undefined once the
 * client has gone away.
 */
export function chunkAfterCutOff<T>(
  progress: Pick<StreamProgress, 'cancelled'>,
  lastChunk: (reason: typeof FAILED_STREAM_REASON) => T,
): T | undefined {
  return progress.cancelled ? undefined : lastChunk(FAILED_STREAM_REASON);
}
