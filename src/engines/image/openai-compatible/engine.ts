import type { CancelSignal } from '../../../util/cancel-signal.js';
import { RequestRefusedByBackend } from '../../chat/pool-errors.js';
import { statusError } from '../../upstream-errors.js';
import { type BackendHttp, backendFailure, call, parseJson } from '../http.js';
import { imageFromBase64, imageFromUrl } from '../image-bytes.js';
import type { GeneratedImage, ImageEngine, ImageJobHooks, ImageRequest } from '../types.js';

export interface OpenAIImageOptions {
  /** Including the version prefix, e.g. `http://localai:8080/v1`. */
  baseUrl: string;
  model: string;
  /** `b64_json` (default) or `url`; `omit` for hosted models that refuse the field and always answer b64_json. */
  responseFormat: 'b64_json' | 'url' | 'omit';
  /** Sends `quality` upstream as the API's own value (hosted APIs that know `hd`/`standard`). */
  sendQuality: boolean;
  extraBody: Record<string, unknown> | undefined;
}

interface ImagesAnswer {
  created?: number;
  data?: { b64_json?: string; url?: string; revised_prompt?: string }[];
}

/**
 * `POST {base}/images/generations` (LocalAI, stable-diffusion.cpp's server, hosted APIs). The job
 * counts as started once the engine answers 2xx: an error answer means nothing is running.
 */
export function createOpenAIImageEngine(options: OpenAIImageOptions, http: BackendHttp): ImageEngine {
  const base = options.baseUrl.replace(/\/+$/, '');
  const url = new URL(`${base}/images/generations`);

  async function generate(request: ImageRequest, signal: CancelSignal, hooks?: ImageJobHooks): Promise<GeneratedImage> {
    const body: Record<string, unknown> = {
      ...options.extraBody,
      model: options.model,
      prompt: request.prompt,
      n: 1,
      size: `${request.size.width}x${request.size.height}`,
      ...(options.responseFormat === 'omit' ? {} : { response_format: options.responseFormat }),
      ...(options.sendQuality ? { quality: request.quality } : {}),
    };
    const answer = await call(http, url, { method: 'POST', json: body, traceparent: request.traceparent }, signal);
    if (answer.status < 200 || answer.status >= 300)
      throw statusError(http, answer.status, answer.body.toString('utf8'));
    hooks?.started?.();
    const parsed = parseJson(http, answer, 'the images answer') as ImagesAnswer;
    const item = Array.isArray(parsed.data) ? parsed.data[0] : undefined;
    const metadata = { created: parsed.created, revised_prompt: item?.revised_prompt };
    if (typeof item?.b64_json === 'string') return imageFromBase64(http, item.b64_json, metadata);
    // A URL elsewhere (a hosted API's blob storage) gets neither our credentials nor a way inside.
    if (typeof item?.url === 'string')
      return imageFromUrl(http, new URL(item.url, url).href, url.origin, signal, metadata);
    // Answered but without an image (a hosted API's content policy): another deployment would not help.
    throw backendFailure(
      http,
      'the images answer has no data[0].b64_json or data[0].url',
      {},
      new RequestRefusedByBackend(answer.status, 'no image in the answer'),
    );
  }

  return {
    generate,
    close: () => http.fetcher.close(),
  };
}
