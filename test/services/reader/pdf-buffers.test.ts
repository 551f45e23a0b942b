import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { longPdf, spaceBomb } from './heavy-pages.js';
import type { UnscannedJob, UnscannedOutcome } from './unmetered-read.js';

/**
 * The extraction thread's second bound: what pdf.js allocates while reading one PDF, counted at the
 * typed-array constructors, whatever the pre-scan made of the file. Here the pre-scan is skipped
 * altogether (unmetered-read.ts reads the PDF straight with pdf.js under the budget read-page.ts
 * gives it).
 */
function inThread(job: UnscannedJob): Promise<UnscannedOutcome> {
  const entry = JSON.stringify(new URL('./unmetered-read.ts', import.meta.url).href);
  const worker = new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${entry}); });`, {
    eval: true,
    workerData: job,
  });
  return new Promise<UnscannedOutcome>((resolve, reject) => {
    worker.once('message', (outcome: UnscannedOutcome) => {
      resolve(outcome);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

const MB = 1024 * 1024;

describe('PDF buffer budget', () => {
  it('a 300 MB bomb given to pdf.js unscanned is refused at the budget, with RSS growing < 100 MB', async () => {
    const pdf = await spaceBomb(300);
    // pdf.js loaded and warm first, so that the growth measured is the bomb's.
    expect(await inThread({ mode: 'read', pdf: longPdf(1), maxDecodedBytes: 16 * MB })).toMatchObject({
      text: expect.stringContaining('tidal'),
    });
    const before = process.memoryUsage().rss;
    let peak = before;
    const poll = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const outcome = await inThread({ mode: 'read', pdf, maxDecodedBytes: 16 * MB }).finally(() => clearInterval(poll));
    expect(outcome).toEqual({ refused: 'over the buffer budget' });
    expect(peak - before).toBeLessThan(100 * MB);
  }, 60_000);

  it('refuses the read even when the reader catches the refusal and goes on', async () => {
    expect(await inThread({ mode: 'swallowed' })).toEqual({ refused: 'over the buffer budget' });
  });

  it('leaves an ordinary PDF alone under the default bound', async () => {
    const outcome = await inThread({ mode: 'read', pdf: longPdf(200), maxDecodedBytes: 64 * MB });
    expect(outcome).toMatchObject({ text: expect.stringContaining('Line 49') });
  }, 60_000);

  it('counts WebAssembly memory as it grows (pdf.js decodes JPEG 2000 in WebAssembly)', async () => {
    expect(await inThread({ mode: 'wasm' })).toEqual({ refused: 'over the buffer budget' });
  });

  it('keeps instanceof, subclasses, statics and views of the typed arrays working', async () => {
    expect(await inThread({ mode: 'types' })).toEqual({ types: [true, true, true, true, true, true] });
  });
});
