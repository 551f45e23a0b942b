import { imageBytes, type ReplayControl, readJson, send, startReplay } from './common.js';

/**
 * The OpenAI images wire (LocalAI, stable-diffusion.cpp server, hosted APIs):
 * `POST /v1/images/generations` → `{created, data:[{b64_json}|{url}]}`; errors `{error:{message,type,param,code}}`.
 */
export function startOpenAIReplay(): Promise<ReplayControl> {
  const served = new Map<string, Buffer>();
  return startReplay(async (req, res, c) => {
    if (req.method === 'GET' && req.url?.startsWith('/img/')) {
      const bytes = served.get(req.url.slice(5));
      return bytes ? send(res, 200, bytes, c.format === 'png' ? 'image/png' : 'image/jpeg') : send(res, 404, {});
    }
    if (req.method !== 'POST' || req.url !== '/v1/images/generations') {
      return send(res, 404, {
        error: { message: 'not found', type: 'invalid_request_error', param: null, code: null },
      });
    }
    const body = (await readJson(req)) as Record<string, unknown>;
    if (typeof body['prompt'] !== 'string' || body['prompt'] === '') {
      return send(res, 400, {
        error: { message: 'prompt is required', type: 'invalid_request_error', param: 'prompt', code: null },
      });
    }
    const [width, height] = String(body['size'] ?? '512x512')
      .split('x')
      .map(Number) as [number, number];
    c.jobs.push({
      prompt: body['prompt'],
      negative: undefined,
      width,
      height,
      seed: Number(body['seed'] ?? 0),
      steps: undefined,
      sampler: undefined,
    });
    let gone = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        gone = true;
        c.cancels.push('disconnect');
      }
    });
    await new Promise((r) => setTimeout(r, c.delayMs));
    if (gone) return;
    if (c.fail === 'error') {
      return send(res, 500, {
        error: { message: 'CUDA out of memory', type: 'server_error', param: null, code: null },
      });
    }
    const size = c.native ?? { width, height };
    const bytes = await imageBytes(size.width, size.height, c.format);
    if (body['response_format'] === 'url') {
      const name = `${served.size}.${c.format}`;
      served.set(name, bytes);
      return send(res, 200, {
        created: Math.floor(Date.now() / 1000),
        data: [{ url: `${c.url.replace(/\/v1$/, '')}/img/${name}` }],
      });
    }
    send(res, 200, {
      created: Math.floor(Date.now() / 1000),
      data: [{ b64_json: bytes.toString('base64'), revised_prompt: body['prompt'] }],
    });
  }, '/v1');
}
