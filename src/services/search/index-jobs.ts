import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { overloaded } from '../../errors/errors.js';
import { importJsonl } from '../../search/import-jsonl.js';
import type { SearchIndex } from '../../search/types.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import type { ReaderService } from '../reader/index.js';
import { crawl } from './crawler.js';

/** A crawl or an import that fills the index in the background, as the console shows it. */
export interface IndexJob {
  id: string;
  kind: 'crawl' | 'import';
  /** The start URL, or the imported file's name. */
  source: string;
  collection: string | undefined;
  state: 'running' | 'done' | 'failed' | 'stopped';
  startedAt: number;
  endedAt: number | undefined;
  /** Documents written to the index so far. */
  indexed: number;
  /** Pages or lines that could not be indexed. */
  failed: number;
  /** Crawl: pages found and waiting; import: lines read. */
  pending: number;
  /** The last few failures, and the outcome once ended. */
  messages: string[];
}

export interface IndexJobsOptions {
  userAgent: string;
  /** Jobs running at once (crawls fetch pages; imports write batches). */
  maxRunning?: number;
  /** Ended jobs kept for the console. */
  keepEnded?: number;
}

const MAX_MESSAGES = 5;

/**
 * The console's way to fill the index: `crawl` and `importJsonl` start a job and return at once;
 * `list` reports every job's progress. Jobs live in this process (the CLI's `index` commands do the
 * same work in the foreground); a stop ends the running ones.
 */
export class IndexJobs {
  private readonly jobs: IndexJob[] = [];
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly reader: ReaderService,
    private readonly index: SearchIndex,
    private readonly options: IndexJobsOptions,
  ) {}

  list(): IndexJob[] {
    return this.jobs.map((j) => ({ ...j, messages: [...j.messages] }));
  }

  crawl(url: string, limits: { maxPages: number; depth: number; collection?: string | undefined }): IndexJob {
    return this.start('crawl', url, limits.collection, async (job, signal) => {
      const result = await crawl(this.reader, this.index, url, {
        maxPages: limits.maxPages,
        depth: limits.depth,
        collection: limits.collection,
        userAgent: this.options.userAgent,
        signal,
        onProgress: (e) => {
          job.indexed = e.pages;
          job.pending = e.queued;
          if (e.error) {
            job.failed++;
            this.note(job, `${e.url}: ${e.error}`);
          }
        },
      });
      job.indexed = result.indexed;
      job.failed = result.failed;
      return `${result.indexed} pages indexed, ${result.failed} failed, ${result.skippedByRobots} disallowed by robots.txt`;
    });
  }

  importJsonl(name: string, lines: Buffer, collection: string | undefined): IndexJob {
    return this.start('import', name, collection, async (job) => {
      // The importer reads a file (it resumes CLI imports by offset): the upload is written to a
      // private temporary folder for the job's length.
      const dir = await mkdtemp(path.join(tmpdir(), 'gen-platform-import-'));
      const file = path.join(dir, 'upload.jsonl');
      const result = await writeFile(file, lines, { mode: 0o600 })
        .then(() =>
          importJsonl(this.index, file, collection === undefined ? {} : { collection }, (p) => {
            job.pending = p.lines;
            job.indexed = p.imported;
            job.failed = p.failed;
          }),
        )
        .finally(() => rm(dir, { recursive: true, force: true }));
      Object.assign(job, { pending: result.lines, indexed: result.imported, failed: result.failed });
      for (const e of result.errors.slice(0, MAX_MESSAGES - 1)) this.note(job, `line ${e.line}: ${e.message}`);
      return `${result.imported} of ${result.lines} lines imported, ${result.failed} failed`;
    });
  }

  /** Stops the running jobs (at shutdown). */
  close(): void {
    for (const controller of this.running.values()) controller.abort();
  }

  private start(
    kind: IndexJob['kind'],
    source: string,
    collection: string | undefined,
    work: (job: IndexJob, signal: CancelSignal) => Promise<string>,
  ): IndexJob {
    const max = this.options.maxRunning ?? 2;
    if (this.running.size >= max) {
      throw overloaded(`${max} index jobs are running already; wait for one to end`, { retryAfter: 10 });
    }
    const job: IndexJob = {
      id: randomUUID(),
      kind,
      source,
      collection,
      state: 'running',
      startedAt: Date.now(),
      endedAt: undefined,
      indexed: 0,
      failed: 0,
      pending: 0,
      messages: [],
    };
    const controller = new AbortController();
    this.running.set(job.id, controller);
    this.jobs.unshift(job);
    work(job, controller.signal)
      .then(
        (outcome) => {
          job.state = controller.signal.aborted ? 'stopped' : 'done';
          this.note(job, outcome);
        },
        (err: unknown) => {
          job.state = 'failed';
          this.note(job, err instanceof Error ? err.message : String(err));
        },
      )
      .finally(() => {
        job.endedAt = Date.now();
        this.running.delete(job.id);
        this.forgetOld();
      });
    return { ...job };
  }

  private note(job: IndexJob, message: string): void {
    job.messages.push(message);
    if (job.messages.length > MAX_MESSAGES) job.messages.shift();
  }

  private forgetOld(): void {
    const keep = this.options.keepEnded ?? 20;
    let ended = 0;
    for (let i = 0; i < this.jobs.length; i++) {
      if (this.jobs[i]!.state === 'running') continue;
      if (++ended > keep) this.jobs.splice(i--, 1);
    }
  }
}
