import type { CancelSignal } from '../../../util/cancel-signal.js';
import { RequestRefusedByBackend } from '../../chat/pool-errors.js';
import { statusError } from '../../upstream-errors.js';
import { withCancel } from '../abort-hooks.js';
import { type BackendHttp, backendFailure, call, parseJson } from '../http.js';
import { imageFromBase64 } from '../image-bytes.js';
import { type QualitySettings, type QualityTable, qualitySettings } from '../quality.js';
import type { GeneratedImage, ImageEngine, ImageJobHooks, ImageQuality, ImageRequest } from '../types.js';

/** Documented defaults (docs/configuration.md): SD-class models look finished at ~30 steps, usable at ~20. */
export const A1111_QUALITY: QualityTable = {
  hd: { steps: 30, sampler: 'DPM++ 2M', scheduler: 'Karras', cfg_scale: 7 },
  standard: { steps: 20, sampler: 'DPM++ 2M', scheduler: 'Karras', cfg_scale: 7 },
};

export interface A1111Options {
  baseUrl: string;
  quality: Partial<Record<ImageQuality, QualitySettings>> | undefined;
  negativePrompt: string | undefined;
  extraBody: Record<string, unknown> | undefined;
}

/**
 * AUTOMATIC1111 / Forge / SD.Next: `POST /sdapi/v1/txt2img` answers when the image is done. Any
 * HTTP answer means the backend took the job; an abort sends `/sdapi/v1/interrupt`.
 */
export function createA1111Engine(options: A1111Options, http: BackendHttp): ImageEngine {
  const base = options.baseUrl.replace(/\/+$/, '');
  const txt2img = new URL(`${base}/sdapi/v1/txt2img`);
  const interrupt = new URL(`${base}/sdapi/v1/interrupt`);

  const cancel = async () => {
    try {
      await call(http, interrupt, { method: 'POST', json: {} }, AbortSignal.timeout(5_000));
    } catch (err) {
      http.logger.warn({ err, upstream: http.label }, 'automatic1111: interrupt failed');
    }
  };

  async function generate(request: ImageRequest, signal: CancelSignal, hooks?: ImageJobHooks): Promise<GeneratedImage> {
    const q = qualitySettings(A1111_QUALITY, options.quality, request.quality);
    const body = {
      ...options.extraBody,
      prompt: request.prompt,
      negative_prompt: request.negativePrompt ?? options.negativePrompt ?? '',
      width: request.size.width,
      height: request.size.height,
      steps: q.steps,
      cfg_scale: q.cfg_scale,
      sampler_name: q.sampler,
      ...(q.scheduler ? { scheduler: q.scheduler } : {}),
      seed: request.seed,
      batch_size: 1,
      n_iter: 1,
      send_images: true,
      save_images: false,
    };
    const answer = await withCancel(signal, cancel, () =>
      call(http, txt2img, { method: 'POST', json: body, traceparent: request.traceparent }, signal),
    );
    // 422 is request validation (nothing ran); any other answer comes after the job ran.
    if (answer.status !== 422) hooks?.started?.();
    if (answer.status < 200 || answer.status >= 300)
      throw statusError(http, answer.status, answer.body.toString('utf8'));
    const parsed = parseJson(http, answer, 'the txt2img answer') as { images?: unknown; info?: unknown };
    const first = Array.isArray(parsed.images) ? parsed.images[0] : undefined;
    if (typeof first !== 'string') {
      throw backendFailure(
        http,
        'the txt2img answer has no images[0]',
        {},
        new RequestRefusedByBackend(200, 'no image'),
      );
    }
    return imageFromBase64(http, first, { info: parsed.info, steps: q.steps, sampler: q.sampler });
  }

  return { generate, close: () => http.fetcher.close() };
}
