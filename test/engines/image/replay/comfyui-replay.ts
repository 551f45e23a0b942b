import { randomUUID } from 'node:crypto';
import { imageBytes, type ReplayControl, readJson, send, startReplay } from './common.js';

type Node = { class_type?: string; inputs?: Record<string, unknown> };
interface Job {
  id: string;
  number: number;
  done: boolean;
  interrupted: boolean;
  failed: boolean;
  filename: string;
}

const KNOWN = new Set([
  'CheckpointLoaderSimple',
  'CLIPTextEncode',
  'EmptyLatentImage',
  'KSampler',
  'VAEDecode',
  'SaveImage',
]);

/**
 * ComfyUI 0.3.x as observed (spec/image-engines.md): `POST /prompt` validates the API-format
 * workflow (unknown class → 400 invalid_prompt; missing input → 400 with node_errors), `/history/{id}`
 * is `{}` until done, `/view` serves the file, `/queue` lists and deletes, `/interrupt` stops the running job.
 * Values are read from the workflow by class: CLIPTextEncode texts, EmptyLatentImage, KSampler.
 */
export function startComfyReplay(): Promise<ReplayControl> {
  const jobs = new Map<string, Job>();
  const files = new Map<string, Buffer>();
  let number = 0;
  return startReplay(async (req, res, c) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/prompt') {
      const body = (await readJson(req)) as { prompt?: Record<string, Node> };
      const workflow = body?.prompt;
      if (!workflow)
        return send(res, 400, {
          error: { type: 'no_prompt', message: 'No prompt provided', details: '', extra_info: {} },
          node_errors: {},
        });
      for (const [id, node] of Object.entries(workflow)) {
        if (!node.class_type || !KNOWN.has(node.class_type)) {
          return send(res, 400, {
            error: {
              type: 'invalid_prompt',
              message: `Cannot execute because node ${node.class_type} does not exist.`,
              details: `Node ID '#${id}'`,
              extra_info: {},
            },
            node_errors: {},
          });
        }
        if (node.class_type === 'KSampler' && !('model' in (node.inputs ?? {}))) {
          return send(res, 400, {
            error: {
              type: 'prompt_outputs_failed_validation',
              message: 'Prompt outputs failed validation',
              details: '',
              extra_info: {},
            },
            node_errors: {
              [id]: {
                errors: [
                  {
                    type: 'required_input_missing',
                    message: 'Required input is missing',
                    details: 'model',
                    extra_info: { input_name: 'model' },
                  },
                ],
                dependent_outputs: ['9'],
                class_type: 'KSampler',
              },
            },
          });
        }
      }
      const nodes = Object.values(workflow);
      const texts = nodes.filter((n) => n.class_type === 'CLIPTextEncode').map((n) => String(n.inputs?.['text']));
      const latent = nodes.find((n) => n.class_type === 'EmptyLatentImage')?.inputs ?? {};
      const sampler = nodes.find((n) => n.class_type === 'KSampler')?.inputs ?? {};
      c.jobs.push({
        prompt: texts[0] ?? '',
        negative: texts[1],
        width: latent['width'] as number,
        height: latent['height'] as number,
        seed: sampler['seed'] as number,
        steps: sampler['steps'] as number,
        sampler: sampler['sampler_name'] as string,
      });
      const id = randomUUID();
      const job: Job = {
        id,
        number: number++,
        done: false,
        interrupted: false,
        failed: c.fail === 'error',
        filename: `gen_${String(number).padStart(5, '0')}_.${c.format === 'png' ? 'png' : 'jpg'}`,
      };
      jobs.set(id, job);
      const size = c.native ?? { width: latent['width'] as number, height: latent['height'] as number };
      const bytes = await imageBytes(size.width, size.height, c.format);
      setTimeout(() => {
        if (!job.interrupted) {
          job.done = true;
          files.set(job.filename, bytes);
        }
      }, c.delayMs);
      return send(res, 200, { prompt_id: id, number: job.number, node_errors: {} });
    }
    if (req.method === 'GET' && url.pathname.startsWith('/history/')) {
      const job = jobs.get(decodeURIComponent(url.pathname.slice(9)));
      if (!job || (!job.done && !job.interrupted)) return send(res, 200, {});
      return send(res, 200, { [job.id]: historyEntry(job) });
    }
    if (req.method === 'GET' && url.pathname === '/view') {
      const name = url.searchParams.get('filename') ?? '';
      if (name.includes('..')) return send(res, 400, 'Invalid filename', 'text/plain');
      const bytes = files.get(name);
      return bytes
        ? send(res, 200, bytes, name.endsWith('.png') ? 'image/png' : 'image/jpeg')
        : send(res, 404, '', 'text/plain');
    }
    if (req.method === 'GET' && url.pathname === '/queue') {
      const open = [...jobs.values()].filter((j) => !j.done && !j.interrupted);
      return send(res, 200, {
        queue_running: open.slice(0, 1).map((j) => [j.number, j.id, {}, {}, ['9']]),
        queue_pending: open.slice(1).map((j) => [j.number, j.id, {}, {}, ['9']]),
      });
    }
    if (req.method === 'POST' && url.pathname === '/queue') {
      const body = (await readJson(req)) as { delete?: string[] };
      for (const id of body?.delete ?? []) {
        c.cancels.push('delete');
        const job = jobs.get(id);
        if (job && !job.done) job.interrupted = true;
      }
      res.writeHead(200).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/interrupt') {
      await readJson(req).catch(() => undefined);
      c.cancels.push('interrupt');
      const running = [...jobs.values()].find((j) => !j.done && !j.interrupted);
      if (running) running.interrupted = true;
      res.writeHead(200).end();
      return;
    }
    if (req.method === 'GET' && url.pathname === '/system_stats')
      return send(res, 200, { system: { comfyui_version: '0.3.76' }, devices: [] });
    send(res, 404, '404: Not Found', 'text/plain');
  });
}

function historyEntry(job: Job) {
  const prompt = [job.number, job.id, {}, { client_id: 'x', create_time: Date.now() }, ['9']];
  if (job.interrupted) {
    return {
      prompt,
      outputs: {},
      status: {
        status_str: 'error',
        completed: false,
        messages: [
          ['execution_start', { prompt_id: job.id }],
          ['execution_interrupted', { prompt_id: job.id, node_id: '3', node_type: 'KSampler' }],
        ],
      },
      meta: {},
    };
  }
  if (job.failed) {
    return {
      prompt,
      outputs: {},
      status: {
        status_str: 'error',
        completed: false,
        messages: [
          ['execution_start', { prompt_id: job.id }],
          [
            'execution_error',
            {
              prompt_id: job.id,
              node_id: '3',
              node_type: 'KSampler',
              exception_type: 'torch.OutOfMemoryError',
              exception_message: 'CUDA out of memory. Tried to allocate 2.00 GiB',
              traceback: ['...'],
            },
          ],
        ],
      },
      meta: {},
    };
  }
  return {
    prompt,
    outputs: { '9': { images: [{ filename: job.filename, subfolder: '', type: 'output' }] } },
    status: {
      status_str: 'success',
      completed: true,
      messages: [
        ['execution_start', { prompt_id: job.id }],
        ['execution_success', { prompt_id: job.id }],
      ],
    },
    meta: { '9': { node_id: '9', display_node: '9' } },
  };
}
