import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { abortSignalOf, type CancelSignal } from '../../../util/cancel-signal.js';
import { RequestRefusedByBackend } from '../../chat/pool-errors.js';
import { statusError } from '../../upstream-errors.js';
import { withCancel } from '../abort-hooks.js';
import { type BackendHttp, backendFailure, call, callOk, parseJson } from '../http.js';
import { imageFromBytes } from '../image-bytes.js';
import { type QualitySettings, type QualityTable, qualitySettings } from '../quality.js';
import type { GeneratedImage, ImageEngine, ImageJobHooks, ImageQuality, ImageRequest } from '../types.js';
import { describePromptError, type HistoryEntry, readHistory } from './history.js';
import { fillWorkflow, type InputMap, type Workflow } from './workflow.js';

/** Documented defaults; sampler and scheduler are written only where the config maps them. */
export const COMFYUI_QUALITY: QualityTable = {
  hd: { steps: 30, sampler: 'dpmpp_2m', scheduler: 'karras', cfg_scale: 7 },
  standard: { steps: 20, sampler: 'dpmpp_2m', scheduler: 'karras', cfg_scale: 7 },
};

export interface ComfyOptions {
  baseUrl: string;
  workflow: Workflow;
  inputs: InputMap;
  /** Node whose images are the result; default the first output node with an image. */
  outputNode: string | undefined;
  quality: Partial<Record<ImageQuality, QualitySettings>> | undefined;
  negativePrompt: string | undefined;
  pollMs: number;
}

/**
 * ComfyUI: the configured workflow with the job's values written into its mapped inputs, queued by
 * `POST /prompt`, followed on `/history/{id}`, its image read from `/view`. An abort interrupts the
 * job if it is the one running and removes it from the queue otherwise.
 */
export function createComfyEngine(options: ComfyOptions, http: BackendHttp): ImageEngine {
  const base = options.baseUrl.replace(/\/+$/, '');
  const url = (p: string) => new URL(base + p);
  const clientId = randomUUID();

  async function cancel(promptId: string): Promise<void> {
    const quick = () => AbortSignal.timeout(5_000);
    try {
      const queue = parseJson(http, await callOk(http, url('/queue'), { method: 'GET' }, quick()), 'the queue') as {
        queue_running?: unknown[][];
      };
      const running = (queue.queue_running ?? []).some((item) => item[1] === promptId);
      if (running) await callOk(http, url('/interrupt'), { method: 'POST', json: {} }, quick());
      await callOk(http, url('/queue'), { method: 'POST', json: { delete: [promptId] } }, quick());
    } catch (err) {
      http.logger.warn({ err, upstream: http.label, promptId }, 'comfyui: cancelling the job failed');
    }
  }

  async function submit(workflow: Workflow, signal: CancelSignal, traceparent: string | undefined): Promise<string> {
    const answer = await call(
      http,
      url('/prompt'),
      { method: 'POST', json: { prompt: workflow, client_id: clientId }, traceparent },
      signal,
    );
    if (answer.status === 400) {
      let body: unknown;
      try {
        body = JSON.parse(answer.body.toString('utf8'));
      } catch {
        body = undefined;
      }
      const message = describePromptError(body);
      throw backendFailure(
        http,
        `ComfyUI refused the workflow: ${message}`,
        { status: 400 },
        new RequestRefusedByBackend(400, message),
      );
    }
    if (answer.status < 200 || answer.status >= 300)
      throw statusError(http, answer.status, answer.body.toString('utf8'));
    const id = (parseJson(http, answer, 'the /prompt answer') as { prompt_id?: unknown }).prompt_id;
    if (typeof id !== 'string') throw backendFailure(http, 'the /prompt answer has no prompt_id');
    return id;
  }

  async function generate(request: ImageRequest, signal: CancelSignal, hooks?: ImageJobHooks): Promise<GeneratedImage> {
    const q = qualitySettings(COMFYUI_QUALITY, options.quality, request.quality);
    const workflow = fillWorkflow(options.workflow, options.inputs, {
      prompt: request.prompt,
      negative_prompt: request.negativePrompt ?? options.negativePrompt ?? '',
      width: request.size.width,
      height: request.size.height,
      seed: request.seed,
      steps: q.steps,
      sampler: q.sampler,
      scheduler: q.scheduler,
      cfg: q.cfg_scale,
    });
    const promptId = await submit(workflow, signal, request.traceparent);
    hooks?.started?.();
    return withCancel(
      signal,
      () => cancel(promptId),
      async () => {
        const pause = { signal: abortSignalOf(signal) }; // timers/promises wants a real AbortSignal
        for (;;) {
          const answer = await callOk(http, url(`/history/${encodeURIComponent(promptId)}`), { method: 'GET' }, signal);
          const history = parseJson(http, answer, 'the history') as Record<string, HistoryEntry>;
          const state = readHistory(history[promptId], options.outputNode);
          if (state.state === 'failed') throw backendFailure(http, state.message, { promptId });
          if (state.state === 'done') {
            const { filename, subfolder, type } = state.image;
            const query = new URLSearchParams({ filename, subfolder, type });
            const view = await callOk(http, url(`/view?${query}`), { method: 'GET' }, signal);
            return imageFromBytes(http, view.body, { prompt_id: promptId, filename, steps: q.steps });
          }
          try {
            await sleep(options.pollMs, undefined, pause);
          } catch (err) {
            throw signal.aborted ? signal.reason : err;
          }
        }
      },
    );
  }

  return { generate, close: () => http.fetcher.close() };
}
