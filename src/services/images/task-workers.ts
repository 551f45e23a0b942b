import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ApiError } from '../../errors/api-error.js';
import { storeFault } from '../../stores/faults.js';
import { retryThroughFaults } from '../../stores/retry-faults.js';
import type { TaskError, TaskRecord, TaskStore } from '../../stores/tasks.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import { failureFields, type LevelAware } from '../../util/failure-fields.js';
import type { JobSlots } from './job-slots.js';

export interface TaskWorkersOptions {
  tasks: TaskStore;
  slots: JobSlots;
  kinds: readonly string[];
  /** Runs a claimed task; resolves with the result's JSON text. */
  run(task: TaskRecord, signal: CancelSignal): Promise<string>;
  /** A task that failed for good (not one given back or taken over): e.g. its reservation released. */
  failed?(task: TaskRecord): Promise<void>;
  leaseMs: number;
  pollMs: number;
  maxAttempts: number;
  log: {
    error(details: Record<string, unknown>, message: string): void;
    warn(details: Record<string, unknown>, message: string): void;
  } & LevelAware;
  now?: () => number;
}

/**
 * This process's task workers: whenever a slot is free they claim a task (leased), renew the lease
 * while it runs, and finish it SUCCESS or FAIL. A task whose lease ran out (its worker died) is
 * claimed again, up to `maxAttempts` starts; then it ends FAIL. On stop, running jobs are cancelled
 * and their tasks given back to the queue, so that a live process takes them up at once.
 */
export class TaskWorkers {
  private readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly running = new Map<string, AbortController>();
  private readonly works = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private pumping = false;
  private again = false;
  private stopped = false;

  constructor(private readonly o: TaskWorkersOptions) {}

  start(): void {
    this.unsubscribe = this.o.slots.onFree(() => this.kick());
    this.timer = setInterval(() => this.kick(), this.o.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Looks for tasks now (a task was just queued, a slot was freed). */
  kick(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    this.pump()
      .catch((err) =>
        this.o.log.error(failureFields(err, this.o.log), 'image tasks: claiming failed; retrying at the next poll'),
      )
      .finally(() => {
        this.pumping = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Stops claiming, cancels running jobs and gives their tasks back to the queue (within ~5 s). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    for (const controller of this.running.values()) controller.abort(new Error('server stopping'));
    const settled = Promise.allSettled([...this.works]);
    await Promise.race([settled, new Promise((r) => setTimeout(r, 5_000).unref())]);
  }

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  private async pump(): Promise<void> {
    while (!this.stopped && this.o.slots.tryAcquire()) {
      let task: TaskRecord | undefined;
      try {
        task = await this.o.tasks.claim({
          owner: this.owner,
          now: this.now(),
          leaseMs: this.o.leaseMs,
          kinds: this.o.kinds,
        });
      } catch (err) {
        // Not a freed slot worth waking for: the next poll retries, rather than a hot loop on a failing store.
        this.releaseQuietly();
        throw err;
      }
      if (!task) {
        this.releaseQuietly();
        return;
      }
      const work = this.work(task);
      this.works.add(work);
      void work.finally(() => this.works.delete(work));
    }
  }

  /** Frees a slot without waking this pump for its own release (nothing was there to claim). */
  private releaseQuietly(): void {
    const kickedMeanwhile = this.again;
    this.o.slots.release();
    this.again = kickedMeanwhile;
  }

  private async work(task: TaskRecord): Promise<void> {
    const controller = new AbortController();
    this.running.set(task.id, controller);
    const heartbeat = setInterval(
      () => {
        this.o.tasks
          .heartbeat(task.id, this.owner, this.now() + this.o.leaseMs)
          .then((held) => {
            // Another worker took the task over (this one stalled past its lease): stop the duplicate.
            if (!held) controller.abort(new Error('lease lost'));
          })
          .catch((err) =>
            this.o.log.warn({ ...failureFields(err, this.o.log), task: task.id }, 'image tasks: lease renewal failed'),
          );
      },
      Math.max(100, Math.floor(this.o.leaseMs / 3)),
    );
    try {
      if (task.attempts > this.o.maxAttempts) {
        await this.finish(task, {
          code: 1234,
          message: `The task was interrupted ${task.attempts - 1} times (its server stopped or crashed) and was given up after images.max_attempts = ${this.o.maxAttempts}`,
        });
        return;
      }
      const result = await this.o.run(task, controller.signal);
      // The image is made: a database away for a moment must not cost it. Completing is guarded by
      // the lease, so a retry after a first try that did commit changes nothing.
      const completed = await retryThroughFaults(
        () => this.o.tasks.complete(task.id, this.owner, result, this.now()),
        this.o.leaseMs,
      );
      if (!completed) {
        this.o.log.warn({ task: task.id }, 'image tasks: finished a task whose lease another worker holds');
      }
    } catch (err) {
      // Stopping: the task goes back to the queue for a live process. A lost lease: it is someone else's.
      if (controller.signal.aborted) {
        if (this.stopped) await this.giveBack(task);
        return;
      }
      // The database went away (while finishing, most likely): nothing can be recorded now. The
      // lease runs out and a worker takes the task up again, so it is never left in PROCESSING.
      if (storeFault(err)) {
        this.o.log.warn(
          { err, task: task.id },
          'image tasks: the database is unavailable; the task will be taken up again',
        );
        return;
      }
      this.o.log.error({ err, task: task.id }, 'image task failed');
      await this.finish(task, taskError(err));
    } finally {
      clearInterval(heartbeat);
      this.running.delete(task.id);
      this.o.slots.release();
    }
  }

  private async giveBack(task: TaskRecord): Promise<void> {
    try {
      await this.o.tasks.release(task.id, this.owner, this.now());
    } catch (err) {
      this.o.log.warn({ err, task: task.id }, 'image tasks: giving a task back failed; its lease will expire');
    }
  }

  private async finish(task: TaskRecord, error: TaskError): Promise<void> {
    try {
      await retryThroughFaults(() => this.o.tasks.fail(task.id, this.owner, error, this.now()), this.o.leaseMs);
    } catch (err) {
      this.o.log.error({ err, task: task.id }, 'image tasks: recording a failure failed; the lease will expire');
      return;
    }
    await this.o
      .failed?.(task)
      .catch((err: unknown) =>
        this.o.log.warn({ err, task: task.id }, 'image tasks: the end of a failed task could not be noted'),
      );
  }
}

function taskError(err: unknown): TaskError {
  if (err instanceof ApiError) return { code: err.code, message: err.message };
  return { code: 500, message: 'Internal error while generating the image' };
}
