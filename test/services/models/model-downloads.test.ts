import { describe, expect, it } from 'vitest';
import type { ModelFileStatus, ModelSource } from '../../../src/engines/chat/factory.js';
import { ModelDownloads } from '../../../src/services/models/model-downloads.js';
import { furthestBehind } from '../../../src/services/models/model-state.js';

function captureLog() {
  const lines: { level: string; message: string; details?: Record<string, unknown> }[] = [];
  return {
    lines,
    log: {
      info: (message: string) => lines.push({ level: 'info', message }),
      warn: (details: Record<string, unknown>, message: string) => lines.push({ level: 'warn', message, details }),
      error: (details: Record<string, unknown>, message: string) => lines.push({ level: 'error', message, details }),
    },
  };
}

/** A remote source whose first `failures` downloads fail; what arrives is a valid model unless `invalid`. */
function flakySource(failures: number, invalid = false) {
  const calls: number[] = [];
  let present = false;
  const source: ModelSource = {
    id: 'remote',
    reference: 'https://models.example/tiny.gguf',
    remote: true,
    check: async (): Promise<ModelFileStatus> => {
      if (!present) return { status: 'missing', reason: 'not downloaded yet' };
      return invalid ? { status: 'invalid', reason: 'general.architecture is missing' } : { status: 'usable' };
    },
    async fetch(onProgress) {
      calls.push(Date.now());
      if (calls.length <= failures) throw new Error(`connection reset (${calls.length})`);
      onProgress(50, 100);
      onProgress(100, 100);
      present = true;
    },
  };
  return { source, calls };
}

const until = async (ok: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('ModelDownloads', () => {
  it('retries a failed download with doubling waits and is never stuck as failed', async () => {
    const { log, lines } = captureLog();
    const downloads = new ModelDownloads(log);
    const { source, calls } = flakySource(2);
    downloads.add(source, 'gen-4.6');
    await downloads.start({ download: true, retry: { firstDelayMs: 40, maxDelayMs: 10_000 } });
    await until(() => calls.length === 3 && downloads.state('remote').state === 'not_loaded');
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(35);
    expect(calls[2]! - calls[1]!).toBeGreaterThanOrEqual(75);
    const warnings = lines.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('connection reset (1)');
    expect(warnings[0]).toContain('retrying in');
    expect(lines.some((l) => l.message.includes(': 50%'))).toBe(true);
    expect(lines.at(-1)?.message).toContain('Downloaded model https://models.example/tiny.gguf');
    expect(downloads.blocker('remote', 'gen-4.6')).toBeUndefined();
    downloads.close();
  });

  it('answers 1305 with Retry-After while failed and waiting for the next attempt', async () => {
    const downloads = new ModelDownloads(captureLog().log);
    const { source } = flakySource(5);
    downloads.add(source, 'gen-4.6');
    await downloads.start({ download: true, retry: { firstDelayMs: 30_000, maxDelayMs: 30_000 } });
    await until(() => downloads.state('remote').state === 'failed');
    // The raw error (it may name hosts, paths, what a server answered) is for the log only.
    expect(downloads.state('remote')).toEqual({
      state: 'failed',
      error: "the download failed (1 attempt); the server's log says why",
    });
    const blocker = downloads.blocker('remote', 'gen-4.6');
    expect(blocker?.code).toBe(1305);
    expect(blocker?.status).toBe(503);
    expect(blocker?.retryAfter).toBeGreaterThan(20);
    expect(blocker?.message).toContain('retried in');
    expect(blocker?.message).not.toContain('connection reset');
    downloads.close();
  });

  it('reports a downloaded file that is not a usable model, without downloading it again', async () => {
    const { log, lines } = captureLog();
    const downloads = new ModelDownloads(log);
    const { source, calls } = flakySource(0, true);
    downloads.add(source, 'gen-4.6');
    await downloads.start({ download: true, retry: { firstDelayMs: 10, maxDelayMs: 10 } });
    await until(() => downloads.state('remote').state === 'failed');
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(1);
    expect(downloads.state('remote')).toEqual({
      state: 'failed',
      error: "the model's file is missing or not a usable model; the server's log says why",
    });
    expect(lines.find((l) => l.level === 'warn')?.message).toContain('gen-4.6');
    expect(lines.find((l) => l.level === 'warn')?.message).toContain('general.architecture is missing');
    // The engine's own error (1234) says what is wrong; waiting would not help.
    expect(downloads.blocker('remote', 'gen-4.6')).toBeUndefined();
    downloads.close();
  });

  it('stops a download at shutdown without taking the partial file for a model', async () => {
    const { log, lines } = captureLog();
    const downloads = new ModelDownloads(log);
    let checks = 0;
    const source: ModelSource = {
      id: 'slow',
      reference: 'https://models.example/slow.gguf',
      remote: true,
      // Missing at start-up; any later look would find the partial file.
      check: async () => (checks++ === 0 ? { status: 'missing', reason: 'not yet' } : { status: 'usable' }),
      // node-llama-cpp's downloader resolves, rather than rejects, when its signal aborts.
      fetch: (_progress, signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve())),
    };
    downloads.add(source, 'gen-4.6');
    await downloads.start({ download: true });
    await until(() => downloads.state('slow').state === 'downloading');
    downloads.close();
    await new Promise((r) => setTimeout(r, 20));
    expect(checks).toBe(1);
    expect(lines.some((l) => l.message.startsWith('Downloaded'))).toBe(false);
  });

  it('reports progress on the terminal when it has one', async () => {
    const out: string[] = [];
    const downloads = new ModelDownloads(captureLog().log);
    downloads.add(flakySource(0).source, 'gen-4.6');
    await downloads.start({ download: true, terminal: (text) => out.push(text) });
    await until(() => out.includes('\n'));
    expect(out).toContain('\rDownloading https://models.example/tiny.gguf: 50%   ');
    downloads.close();
  });

  it('with preload off, checks but leaves the download to the first call', async () => {
    const downloads = new ModelDownloads(captureLog().log);
    const { source, calls } = flakySource(0);
    downloads.add(source, 'gen-4.6');
    await downloads.start({ download: false });
    await new Promise((r) => setTimeout(r, 30));
    expect(calls).toHaveLength(0);
    expect(downloads.state('remote')).toEqual({ state: 'not_loaded' });
    expect(downloads.blocker('remote', 'gen-4.6')).toBeUndefined();
  });

  it('warns about a local file that cannot be served, naming the models and the path', async () => {
    const { log, lines } = captureLog();
    const downloads = new ModelDownloads(log);
    const local: ModelSource = {
      id: '/models/missing.gguf',
      reference: '/models/missing.gguf',
      remote: false,
      check: async () => ({
        status: 'missing',
        reason: '/models/missing.gguf: model file does not exist or is not readable',
      }),
      fetch: () => Promise.reject(new Error('local')),
    };
    downloads.add(local, 'gen-4.6');
    downloads.add(local, 'gen-5');
    await downloads.start({ download: true });
    const warn = lines.find((l) => l.level === 'warn');
    expect(warn?.message).toContain('gen-4.6, gen-5');
    expect(warn?.message).toContain('/models/missing.gguf');
    expect(warn?.details).toEqual({ models: ['gen-4.6', 'gen-5'], path: '/models/missing.gguf' });
    expect(downloads.state(local.id).state).toBe('failed');
    // A local file is fixed by hand: calls go ahead (and fail or succeed on their own).
    expect(downloads.blocker(local.id, 'gen-4.6')).toBeUndefined();
  });
});

describe('furthestBehind', () => {
  it('reports a pool where its furthest-behind deployment stands', () => {
    expect(furthestBehind([])).toEqual({ state: 'ready' });
    expect(furthestBehind([{ state: 'ready' }, { state: 'not_loaded' }])).toEqual({ state: 'not_loaded' });
    expect(
      furthestBehind([
        { state: 'downloading', progress: 70 },
        { state: 'downloading', progress: 20 },
        { state: 'ready' },
      ]),
    ).toEqual({ state: 'downloading', progress: 20 });
    expect(
      furthestBehind([
        { state: 'downloading', progress: 5 },
        { state: 'failed', error: 'x' },
      ]).state,
    ).toBe('failed');
  });
});
