import { randomInt } from 'node:crypto';
import type { ImagesConfig } from '../../config/images-schema.js';
import type { ImageQuality, ImageRequest, ImageSize } from '../../engines/image/types.js';
import { notFound, overloaded, tooManyConcurrent, unknownModel, upstreamFailure } from '../../errors/errors.js';
import type { FileReservation, FileStore, StoredFile } from '../../files/types.js';
import { imageModel } from '../../models/catalogue.js';
import type { MoneyStore } from '../../stores/money.js';
import {
  fullShare,
  type QueueAdmission,
  type QueueShare,
  type TaskRecord,
  type TaskStore,
} from '../../stores/tasks.js';
import { inSpan, type Tracer } from '../../telemetry/tracer.js';
import { abortSignalOf, type CancelSignal } from '../../util/cancel-signal.js';
import type { CallMeter } from '../billing/call-meter.js';
import { reserveImages } from '../billing/priced-call.js';
import type { SafetyService } from '../safety/safety-service.js';
import { contentFilter } from '../safety/safety-service.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import { fitToSize } from './fit-size.js';
import type { ImageEngineDirectory } from './image-directory.js';
import { imageRoom } from './image-room.js';
import type { JobSlots } from './job-slots.js';

export const IMAGE_TASK_KIND = 'images.generations';

export interface ImageInput {
  model: string;
  prompt: string;
  size?: string | undefined;
  quality?: ImageQuality | undefined;
}

export type ContentFilter = { role: string; level: number }[];

/** A generated image: the stored file (the route makes its URL) and what the safety check saw. */
export interface ImageOutcome {
  file: Pick<StoredFile, 'id' | 'extension'>;
  contentFilter: ContentFilter;
}

/** What a task row carries as input: the request with its defaults resolved, and the safety report. */
interface TaskInput {
  request: ImageRequest;
  model: string;
  contentFilter: ContentFilter;
  /** A priced task: what it holds from submission until it ends, and bills once its image is made. */
  billing?: TaskBilling;
}

interface TaskBilling {
  reservationId: string;
  accountId: string;
  amount: number;
}

export interface ImageServiceDeps {
  engines: ImageEngineDirectory;
  files: FileStore;
  safety: SafetyService;
  slots: JobSlots;
  tasks: TaskStore;
  config: ImagesConfig;
  /** Tells this process's workers that a task is waiting (they also poll). */
  kick?: () => void;
  /** When tracing is on: a span per job and per engine call. */
  tracer?: Tracer | undefined;
  /** Where a priced task's cost is recorded (the record settles its reservation). */
  usage?: Pick<UsageRecorder, 'record'> | undefined;
  /** Where a priced task that failed gives its reservation back. */
  money?: Pick<MoneyStore, 'release'>;
}

/** Image generation, sync and async, over one engine path: check, resolve, generate, fit, store. */
export class ImageService {
  constructor(private readonly deps: ImageServiceDeps) {}

  /**
   * Sync: the job runs in one of this process's slots while the caller waits (its signal cancels it);
   * callers waiting for a slot are served tenant by tenant (`tenant`: the key's id).
   */
  async generate(input: ImageInput, signal: CancelSignal, tenant: string, meter?: CallMeter): Promise<ImageOutcome> {
    // The image's room in the file store is held first: a key at its cap is refused before the
    // safety check, a price or a slot is spent on an image that could not be kept.
    const room = await this.deps.files.reserve(tenant, imageRoom(this.resolve(input).size));
    try {
      const prepared = await this.prepare(input, signal, tenant);
      // Priced: the image's price is reserved before it waits for a slot, billed once it is stored.
      const { size, quality } = prepared.request;
      const price = meter
        ? await reserveImages(meter, input.model, { size: `${size.width}x${size.height}`, quality, count: 1 })
        : 0;
      await this.deps.slots.acquire(signal, tenant);
      try {
        const file = await this.run(prepared.model, prepared.request, signal, room);
        meter?.addFixed(price);
        return { file, contentFilter: prepared.contentFilter };
      } finally {
        this.deps.slots.release();
      }
    } finally {
      room.release();
    }
  }

  /** Async: the task is written before its handle is returned; a worker (here or elsewhere) runs it. */
  /**
   * Priced (`meter`, the task's own: its reservation outlives the request): the image's price is
   * reserved before the task is written, billed by the worker that makes it, released if it fails.
   */
  async submit(
    input: ImageInput,
    ids: { id: string; requestId: string; keyId: string; accountId?: string | undefined },
    meter?: CallMeter,
  ): Promise<TaskRecord> {
    const { tasks, config } = this.deps;
    const { id, requestId, keyId, accountId } = ids;
    const share: QueueShare = {
      queueSize: config.queue_size,
      perKey: config.queue_per_key,
      accountId,
      perAccount: config.queue_per_account,
    };
    // A share already taken is refused before the safety check or a reservation: nothing is spent.
    refuseFull(fullShare(await tasks.waitingShares(IMAGE_TASK_KIND, keyId, accountId, Date.now()), share), config);
    // So is a key whose files leave no room for the image (checked again when a worker makes it).
    (await this.deps.files.reserve(keyId, imageRoom(this.resolve(input).size))).release();
    const prepared = await this.prepare(input, new AbortController().signal, keyId);
    if (meter) {
      const { size, quality } = prepared.request;
      const amount = await reserveImages(meter, input.model, {
        size: `${size.width}x${size.height}`,
        quality,
        count: 1,
      });
      if (meter.reserved)
        prepared.billing = { reservationId: meter.reservationId, accountId: meter.accountId!, amount };
    }
    const now = Date.now();
    const task = {
      id,
      requestId,
      keyId,
      kind: IMAGE_TASK_KIND,
      model: input.model,
      input: JSON.stringify(prepared),
      createdAt: now,
    };
    // The check that counts: made again with the insert, atomically, so concurrent submissions
    // (here or in other processes) never take more than the shares.
    let admission: QueueAdmission;
    try {
      admission = await tasks.createWithin(task, share);
    } catch (err) {
      if (prepared.billing) await this.releaseTask(prepared.billing);
      throw err;
    }
    if (!admission.admitted) {
      if (prepared.billing) await this.releaseTask(prepared.billing);
      refuseFull(admission, config);
    }
    this.deps.kick?.();
    return {
      ...task,
      status: 'PROCESSING',
      result: undefined,
      error: undefined,
      attempts: 0,
      leaseOwner: undefined,
      leaseUntil: undefined,
      updatedAt: now,
    };
  }

  /** The task, if it exists and belongs to this key; another key's task is as if it did not exist. */
  async task(id: string, keyId: string): Promise<TaskRecord> {
    const task = await this.deps.tasks.get(id);
    if (!task || task.keyId !== keyId) throw notFound(`Task ${id} does not exist`);
    return task;
  }

  /** Runs a claimed task's job; the JSON text of its result. */
  async runTask(task: TaskRecord, signal: CancelSignal): Promise<string> {
    const input = JSON.parse(task.input) as TaskInput;
    const tracer = this.deps.tracer;
    // The room is held before the engine runs: a task whose key filled its share since it was
    // queued fails with that refusal rather than after its image is made.
    const room = await this.deps.files.reserve(task.keyId, imageRoom(input.request.size));
    let file: StoredFile;
    try {
      // A worker's job has no request around it: its span starts a trace of its own, named by the task.
      file = tracer
        ? await inSpan(
            tracer,
            `image_job ${input.model}`,
            { kind: 'internal', attributes: { 'gen_platform.task_id': task.id, 'gen_ai.request.model': input.model } },
            () => this.run(input.model, input.request, signal, room),
          )
        : await this.run(input.model, input.request, signal, room);
    } finally {
      room.release();
    }
    const outcome: ImageOutcome = {
      file: { id: file.id, extension: file.extension },
      contentFilter: input.contentFilter,
    };
    if (input.billing) await this.billTask(task, input.model, input.billing);
    return JSON.stringify(outcome);
  }

  /** A task that failed for good: what it held is given back. */
  async taskFailed(task: TaskRecord): Promise<void> {
    const billing = (JSON.parse(task.input) as TaskInput).billing;
    if (billing) await this.releaseTask(billing);
  }

  /**
   * The image of a priced task is made: its usage record carries its cost and settles its
   * reservation. The record's id is the task's, so a task run again (its worker died after this)
   * is not billed twice.
   */
  private billTask(task: TaskRecord, model: string, billing: TaskBilling): Promise<void> {
    const now = Date.now();
    return (
      this.deps.usage?.record({
        keyId: task.keyId,
        operation: 'async.images.generations',
        model,
        requestId: undefined,
        promptTokens: 0,
        completionTokens: 0,
        status: 200,
        latencyMs: now - task.createdAt,
        createdAt: now,
        cost: billing.amount,
        accountId: billing.accountId,
        reservationId: billing.reservationId,
        journalId: `task.${task.id}`,
      }) ?? Promise.resolve()
    );
  }

  private async releaseTask(billing: TaskBilling): Promise<void> {
    // A release that fails is left to the reservation's lease.
    await this.deps.money?.release(billing.reservationId).catch(() => {});
  }

  /** The model's defaults applied; 1211 for a model this server does not have. */
  private resolve(input: ImageInput): { size: ImageSize; quality: ImageQuality } {
    if (!this.deps.engines.has(input.model)) {
      throw unknownModel(
        `Image model ${input.model} is not configured on this server: add a deployment under \`models.${input.model}\` (see docs/configuration.md)`,
      );
    }
    const spec = imageModel(input.model);
    const [width, height] = (input.size ?? spec.defaultSize).split('x').map(Number) as [number, number];
    return { size: { width, height }, quality: input.quality ?? spec.defaultQuality };
  }

  private async prepare(input: ImageInput, signal: CancelSignal, tenant: string): Promise<TaskInput> {
    const { size, quality } = this.resolve(input);
    // Refused prompts stop here: nothing is queued or generated.
    const check = await this.deps.safety.require(input.prompt, 'user', signal, tenant);
    return {
      model: input.model,
      request: { prompt: input.prompt, size, quality, seed: randomInt(0, 2 ** 31) },
      contentFilter: contentFilter([check]),
    };
  }

  /** `room`: the image's place in the file store, held under the share of the key that asked for it. */
  private async run(
    model: string,
    request: ImageRequest,
    signal: CancelSignal,
    room: FileReservation,
  ): Promise<StoredFile> {
    const engine = await this.deps.engines.get(model);
    if (!engine) throw unknownModel(`Image model ${model} is not configured on this server`);
    const timeout = AbortSignal.timeout(this.deps.config.timeout_seconds * 1000);
    const jobSignal = AbortSignal.any([abortSignalOf(signal), timeout]);
    let image: Awaited<ReturnType<typeof engine.generate>>;
    const tracer = this.deps.tracer;
    try {
      image = tracer
        ? await inSpan(
            tracer,
            `generate_content ${model}`,
            {
              kind: 'client',
              attributes: {
                'gen_ai.operation.name': 'generate_content',
                'gen_ai.output.type': 'image',
                'gen_ai.request.model': model,
                'gen_ai.request.seed': request.seed,
                'gen_platform.image.size': `${request.size.width}x${request.size.height}`,
                'gen_platform.image.quality': request.quality,
              },
            },
            (span) => engine.generate({ ...request, traceparent: span.traceparent() }, jobSignal),
          )
        : await engine.generate(request, jobSignal);
    } catch (err) {
      if (timeout.aborted && !signal.aborted) {
        throw upstreamFailure(`Image generation took longer than ${this.deps.config.timeout_seconds} s`, {
          cause: err,
        });
      }
      throw err;
    }
    const fitted = await fitToSize(image, request.size);
    return room.put(fitted.bytes, { contentType: fitted.mime });
  }
}

/** Throws the refusal of a full queue or share; the message names the setting that applied. */
function refuseFull(admission: QueueAdmission, config: ImagesConfig): void {
  if (admission.admitted) return;
  const retry = { retryAfter: 10 };
  switch (admission.full) {
    case 'queue':
      throw overloaded(
        `Image generation is at capacity: the task queue is full (images.queue_size = ${config.queue_size} waiting tasks), retry later`,
        retry,
      );
    case 'account':
      throw tooManyConcurrent(
        `The keys of this account already have ${admission.held} image tasks waiting; this account allows ${config.queue_per_account} (images.queue_per_account): retry when one has started`,
        retry,
      );
    case 'key':
      throw tooManyConcurrent(
        `This key already has ${admission.held} image tasks waiting; a key may have ${config.queue_per_key} (images.queue_per_key): retry when one has started`,
        retry,
      );
  }
}
