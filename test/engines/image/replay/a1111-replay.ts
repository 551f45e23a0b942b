import { imageBytes, type ReplayControl, readJson, send, startReplay, waitOrCut } from './common.js';

/**
 * The AUTOMATIC1111 / Forge API (FastAPI): `POST /sdapi/v1/txt2img` → `{images:[b64], parameters,
 * info: "<JSON text>"}`; 422 `{detail:[{loc,msg,type}]}` on a bad body; 500 `{error, detail, body,
 * errors}` when generation fails; `POST /sdapi/v1/interrupt` ends the running job early.
 */
export function startA1111Replay(): Promise<ReplayControl> {
  let interrupt: () => void = () => undefined;
  return startReplay(async (req, res, c) => {
    if (req.method === 'POST' && req.url === '/sdapi/v1/interrupt') {
      await readJson(req);
      c.cancels.push('interrupt');
      interrupt();
      return send(res, 200, {});
    }
    if (req.method !== 'POST' || req.url !== '/sdapi/v1/txt2img') return send(res, 404, { detail: 'Not Found' });
    const body = (await readJson(req)) as Record<string, unknown>;
    if (!Number.isInteger(body['width']) || !Number.isInteger(body['height'])) {
      return send(res, 422, {
        detail: [{ loc: ['body', 'width'], msg: 'value is not a valid integer', type: 'type_error.integer' }],
      });
    }
    c.jobs.push({
      prompt: String(body['prompt']),
      negative: body['negative_prompt'] as string | undefined,
      width: body['width'] as number,
      height: body['height'] as number,
      seed: body['seed'] as number,
      steps: body['steps'] as number,
      sampler: body['sampler_name'] as string,
    });
    const cut = new Promise<void>((r) => {
      interrupt = r;
    });
    await waitOrCut(c.delayMs, cut);
    if (c.fail === 'error') {
      return send(res, 500, {
        error: 'OutOfMemoryError',
        detail: '',
        body: '',
        errors: 'CUDA out of memory. Tried to allocate 2.00 GiB',
      });
    }
    const size = c.native ?? { width: body['width'] as number, height: body['height'] as number };
    const bytes = await imageBytes(size.width, size.height, c.format);
    send(res, 200, {
      images: [bytes.toString('base64')],
      parameters: body,
      info: JSON.stringify({
        prompt: body['prompt'],
        seed: body['seed'],
        steps: body['steps'],
        sampler_name: body['sampler_name'],
      }),
    });
  });
}
