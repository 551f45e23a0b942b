import { type ChildExit, ChildRun, describeExit, freeLoopbackPort } from './child.js';

/** One started llama-server and what talks to it. */
export interface Instance<T> {
  run: ChildRun;
  value: T;
  readyAt: number;
}

export interface SupervisorOptions<T> {
  binary: string;
  args(port: number): string[];
  /** Longest wait for `/health` after a start (model loading included). */
  startTimeoutMs: number;
  /** Between SIGTERM and SIGKILL when stopping. */
  stopGraceMs: number;
  /** Restart delays: none after the first crash, then `firstMs`, doubling up to `maxMs`. */
  backoff: { firstMs: number; maxMs: number };
  /** A child that served this long before it exited counts as recovered: the next restart is immediate. */
  stableMs: number;
  /** What talks to a child that is ready (the upstream engine); `dispose` lets it go. */
  connect(run: ChildRun): Promise<T>;
  dispose(value: T): Promise<void>;
  log: {
    info(message: string): void;
    error(details: Record<string, unknown>, message: string): void;
  };
  label: string;
}

/** Why the child is not serving, and when it is tried again. */
export interface Down {
  reason: string;
  retryAt: number;
}

/**
 * Runs one llama-server at a time: starts it, restarts it when it exits (at once after a crash of a
 * child that served a while, with doubling delays while it keeps failing), and stops it for good on
 * close. Callers take the instance that serves now, wait for one that is starting, or learn why
 * there is none.
 */
export class Supervisor<T> {
  private live: Instance<T> | undefined;
  private starting: Promise<Instance<T>> | undefined;
  private down: Down | undefined;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(private readonly o: SupervisorOptions<T>) {}

  /** The first start: throws (with what the child printed) when it does not come up. */
  async start(): Promise<Instance<T>> {
    return this.launch();
  }

  get healthy(): boolean {
    return this.live?.run.running === true;
  }

  /** The serving instance, the one starting (awaited), or `Down` when neither. */
  current(): Instance<T> | Promise<Instance<T>> | Down {
    if (this.live?.run.running) return this.live;
    if (this.starting) return this.starting;
    return this.down ?? { reason: this.closing ? 'it is stopped' : 'it is not running', retryAt: 0 };
  }

  /** The pid of the serving child (tests, logs). */
  get pid(): number | undefined {
    return this.live?.run.pid;
  }

  private launch(): Promise<Instance<T>> {
    const starting = (async () => {
      const port = await freeLoopbackPort();
      const run = new ChildRun(this.o.binary, this.o.args(port), port);
      try {
        await run.ready(this.o.startTimeoutMs);
        if (this.closing) throw new Error('stopped while starting');
        const value = await this.o.connect(run);
        return { run, value, readyAt: Date.now() };
      } catch (err) {
        run.kill();
        await run.exited;
        const tail = run.logTail();
        throw new Error(`${(err as Error).message}${tail ? `; it printed:\n${tail}` : ''}`, { cause: err });
      }
    })();
    this.starting = starting;
    starting.then(
      (instance) => {
        if (this.starting === starting) this.starting = undefined;
        this.live = instance;
        this.down = undefined;
        void instance.run.exited.then((exit) => this.exited(instance, exit));
      },
      (err: unknown) => {
        if (this.starting === starting) this.starting = undefined;
        if (this.closing) return;
        if (this.failures > 0 || this.live !== undefined || this.down !== undefined)
          this.restartLater(`it failed to start: ${(err as Error).message}`, { err });
      },
    );
    return starting;
  }

  private exited(instance: Instance<T>, exit: ChildExit): void {
    if (this.live === instance) this.live = undefined;
    // On close, close() lets the instance go itself, after the child has exited.
    if (this.closing) return;
    void this.o
      .dispose(instance.value)
      .catch((err: unknown) =>
        this.o.log.error({ err }, `llama-server of ${this.o.label}: closing the connections of the exited child`),
      );
    if (Date.now() - instance.readyAt >= this.o.stableMs) this.failures = 0;
    this.restartLater(`it ${describeExit(exit)}`, { exit, output: instance.run.logTail() });
  }

  private restartLater(reason: string, details: Record<string, unknown>): void {
    const { firstMs, maxMs } = this.o.backoff;
    const delay = this.failures === 0 ? 0 : Math.min(maxMs, firstMs * 2 ** (this.failures - 1));
    this.failures++;
    this.down = { reason, retryAt: Date.now() + delay };
    this.o.log.error(
      { ...details, restartInMs: delay },
      `llama-server of ${this.o.label} stopped serving: ${reason}; restarting in ${delay} ms`,
    );
    const restart = () => {
      this.timer = undefined;
      if (this.closing) return;
      this.launch().then(
        () => this.o.log.info(`llama-server of ${this.o.label} restarted and serving`),
        () => {
          // launch() schedules the next attempt itself.
        },
      );
    };
    if (delay === 0) restart();
    else {
      this.timer = setTimeout(restart, delay);
      this.timer.unref();
    }
  }

  /** Stops restarting, and stops the child: SIGTERM, SIGKILL after the grace period. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    const starting = this.starting;
    if (starting) await starting.catch(() => undefined);
    const live = this.live;
    this.live = undefined;
    if (live) {
      await live.run.stop(this.o.stopGraceMs);
      await this.o.dispose(live.value);
    }
  }
}
