import { createDeadline } from '../../net/deadline.js';
import { isNetError } from '../../net/net-error.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import { type BackendHttp, backendFailure, callOk } from './http.js';
import { sniffImageType } from './mime.js';
import type { GeneratedImage } from './types.js';

/** Bytes an engine sent as an image: they must be one, whatever the engine claimed. */
export function imageFromBytes(http: BackendHttp, bytes: Buffer, metadata: Record<string, unknown>): GeneratedImage {
  const mime = sniffImageType(bytes);
  if (!mime) throw backendFailure(http, 'the engine answered something that is not a PNG, JPEG or WebP image');
  return { bytes, mime, metadata };
}

export function imageFromBase64(http: BackendHttp, b64: string, metadata: Record<string, unknown>): GeneratedImage {
  // Some servers send a data URL rather than bare base64.
  const bare = b64.startsWith('data:') ? b64.slice(b64.indexOf(',') + 1) : b64;
  return imageFromBytes(http, Buffer.from(bare, 'base64'), metadata);
}

/**
 * Fetches an image URL at once (hosted APIs' URLs expire quickly), within the size bound. On the
 * engine's own origin it is the engine (with its credentials); anywhere else it is a URL like any
 * other a third party hands over: fetched without credentials and through the guarded fetcher, so
 * an engine's answer cannot point the server into its own network.
 */
export async function imageFromUrl(
  http: BackendHttp,
  url: string,
  engineOrigin: string,
  signal: CancelSignal,
  metadata: Record<string, unknown>,
): Promise<GeneratedImage> {
  let target: URL;
  try {
    target = new URL(url);
  } catch (err) {
    throw backendFailure(http, 'the engine answered an image URL that is not a URL', {}, err);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw backendFailure(http, `the engine answered an image URL with scheme ${target.protocol}`);
  if (target.origin === engineOrigin) {
    const answer = await callOk(http, target, { method: 'GET' }, signal);
    return imageFromBytes(http, answer.body, metadata);
  }
  const deadline = createDeadline(http.timeoutMs / 1000, signal);
  try {
    const fetched = await http.outbound.get(
      target.href,
      {
        maxBytes: http.maxBytes,
        maxRedirects: 5,
        idleTimeoutMs: http.timeoutMs,
        userAgent: 'gen-platform',
        accept: 'image/*',
      },
      deadline,
    );
    return imageFromBytes(http, fetched.body, metadata);
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    if (!isNetError(err)) throw err;
    const what =
      err.failure === 'too-large'
        ? `the image its URL points to is larger than ${http.maxBytes} bytes (images.max_image_bytes)`
        : `the image its URL points to could not be fetched: ${err.message}`;
    throw backendFailure(http, what, { target: target.origin }, err);
  } finally {
    deadline.dispose();
  }
}
