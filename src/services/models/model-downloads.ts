import type { EngineContext, ModelSource } from '../../engines/chat/factory.js';
import type { ApiError } from '../../errors/api-error.js';
import { overloaded } from '../../errors/errors.js';
import { failureFields } from '../../util/failure-fields.js';
import type { ModelState } from './model-state.js';

export interface RetryPolicy {
  /** Wait after the first failure; doubled after each further one, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export interface StartOptions {
  /** Download the remote models now (`embedded.preload`); otherwise they download on first use. */
  download: boolean;
  /** Writes a progress line in place, when the server runs on a terminal (absent or undefined: it does not). */
  terminal?: ((text: string) => void) | undefined;
  /** After a failed download; default 5 s, doubling up to 5 min. */
  retry?: RetryPolicy;
}

interface Entry {
  source: ModelSource;
  codes: string[];
  /** `retrying`: a download failed and is tried again at `retryAt`; `unusable`: fixed only by hand. */
  status: 'unchecked' | 'present' | 'downloading' | 'retrying' | 'unusable';
  /** 0–100, while downloading. */
  progress: number;
  bytesPerMs: number;
  remainingBytes: number;
  /** What went wrong, for the log: it may name paths, hosts, or what a server answered. */
  error: string;
  /** What key holders are told (the model list, a refused call): what happened, not its details. */
  publicError: string;
  retryAt: number;
  failures: number;
}

const DEFAULT_RETRY: RetryPolicy = { firstDelayMs: 5_000, maxDelayMs: 5 * 60_000 };

function codeList(codes: string[]): string {
  return codes.length <= 3 ? codes.join(', ') : `${codes.slice(0, 3).join(', ')} and ${codes.length - 3} more`;
}

/**
 * The model files the deployments need: checked at start-up, downloaded in the background, and
 * retried with backoff after a failure, so that a network outage is never remembered for good.
 */
export class ModelDownloads {
  private readonly entries = new Map<string, Entry>();
  private readonly stopping = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();
  private terminal: ((text: string) => void) | undefined;
  private retry = DEFAULT_RETRY;

  constructor(private readonly log: EngineContext['log']) {}

  add(source: ModelSource, code: string): void {
    const entry = this.entries.get(source.id);
    if (entry) {
      if (!entry.codes.includes(code)) entry.codes.push(code);
      return;
    }
    this.entries.set(source.id, {
      source,
      codes: [code],
      status: 'unchecked',
      progress: 0,
      bytesPerMs: 0,
      remainingBytes: 0,
      error: '',
      publicError: '',
      retryAt: 0,
      failures: 0,
    });
  }

  /** Checks every file once; warns about local ones that cannot be served; starts the downloads. */
  async start(options: StartOptions): Promise<void> {
    this.terminal = options.terminal;
    this.retry = options.retry ?? DEFAULT_RETRY;
    await Promise.all(
      [...this.entries.values()].map(async (e) => {
        const file = await e.source.check();
        if (file.status === 'usable') e.status = 'present';
        else if (file.status === 'invalid' || !e.source.remote) this.unusable(e, file.reason);
        else if (options.download) void this.download(e);
      }),
    );
  }

  state(id: string): ModelState {
    const e = this.entries.get(id);
    if (!e) return { state: 'not_loaded' };
    if (e.status === 'downloading') return { state: 'downloading', progress: e.progress };
    if (e.status === 'retrying' || e.status === 'unusable') return { state: 'failed', error: e.publicError };
    return { state: 'not_loaded' };
  }

  /** Why a call to this model must wait (503 1305 with Retry-After), or undefined when it may go ahead. */
  blocker(id: string, code: string): ApiError | undefined {
    const e = this.entries.get(id);
    if (e?.status === 'downloading') {
      const eta = e.bytesPerMs > 0 ? e.remainingBytes / e.bytesPerMs / 1000 : 10;
      return overloaded(
        `Model ${code} is still downloading (${e.progress}% done); retry later or watch its state at GET /paas/v4/models`,
        { retryAfter: Math.min(60, Math.max(1, Math.ceil(eta))) },
      );
    }
    if (e?.status === 'retrying') {
      const wait = Math.max(1, Math.ceil((e.retryAt - Date.now()) / 1000));
      const message = `Model ${code} is not downloaded yet: ${e.publicError}; the download is retried in ${wait} s`;
      return overloaded(message, { retryAfter: wait });
    }
    return undefined;
  }

  close(): void {
    this.stopping.abort();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** A file that no retry fixes (missing locally, or not a valid model): said once, by model and path. */
  private unusable(e: Entry, reason: string): void {
    e.status = 'unusable';
    e.error = reason;
    e.publicError = "the model's file is missing or not a usable model; the server's log says why";
    this.log.warn(
      { models: e.codes, path: e.source.reference },
      `Model ${codeList(e.codes)}: ${reason}. Calls to it will fail until the file is fixed; the rest of the server runs.`,
    );
  }

  private async download(e: Entry): Promise<void> {
    const { reference } = e.source;
    e.status = 'downloading';
    e.progress = 0;
    e.bytesPerMs = 0;
    const started = Date.now();
    let logged = 0;
    let shown = -1;
    this.log.info(`Downloading model ${reference} for ${codeList(e.codes)}`);
    try {
      await e.source.fetch((done, total) => {
        e.progress = total > 0 ? Math.min(100, Math.floor((done * 100) / total)) : 0;
        e.remainingBytes = Math.max(0, total - done);
        e.bytesPerMs = done / Math.max(1, Date.now() - started);
        const step = Math.floor(e.progress / 10) * 10;
        if (step > logged) {
          logged = step;
          this.log.info(`Downloading model ${reference}: ${e.progress}%`);
        }
        if (this.terminal && e.progress !== shown) {
          shown = e.progress;
          this.terminal(`\rDownloading ${reference}: ${e.progress}%   `);
        }
      }, this.stopping.signal);
      // A download stopped by shutdown resolves too, with its partial file being removed.
      if (this.stopping.signal.aborted) return;
      if (shown >= 0) this.terminal?.('\n');
      const file = await e.source.check();
      if (file.status === 'missing') throw new Error(file.reason);
      e.failures = 0;
      if (file.status === 'invalid')
        return this.unusable(e, `the downloaded file is not a usable model: ${file.reason}`);
      e.status = 'present';
      this.log.info(`Downloaded model ${reference}`);
    } catch (err) {
      if (this.stopping.signal.aborted) return;
      e.failures += 1;
      const delay = Math.min(this.retry.maxDelayMs, this.retry.firstDelayMs * 2 ** (e.failures - 1));
      e.status = 'retrying';
      e.error = err instanceof Error ? err.message : String(err);
      e.publicError = `the download failed (${e.failures} ${e.failures === 1 ? 'attempt' : 'attempts'}); the server's log says why`;
      e.retryAt = Date.now() + delay;
      if (shown >= 0) this.terminal?.('\n');
      this.log.warn(
        { ...failureFields(err, this.log), model: reference, attempt: e.failures },
        `Download of model ${reference} failed: ${e.error}; retrying in ${Math.ceil(delay / 1000)} s`,
      );
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.download(e);
      }, delay);
      timer.unref();
      this.timers.add(timer);
    }
  }
}
