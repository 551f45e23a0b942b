/**
 * A worker thread for pdf-buffers.test.ts: installs the buffer meter as an extraction thread does,
 * then, with the pre-scan skipped, reads the PDF it is given under the budget read-page.ts gives a
 * PDF, or runs one of the checks named by `mode`, and posts the outcome.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pdfToText } from '../../../src/services/reader/pdf.js';
import { installBufferMeter, pdfBufferLimit, withBufferBudget } from '../../../src/services/reader/pdf-buffers.js';
import { PdfTooLarge } from '../../../src/services/reader/pdf-streams.js';

export interface UnscannedJob {
  mode: 'read' | 'swallowed' | 'types' | 'wasm';
  pdf?: Uint8Array;
  maxDecodedBytes?: number;
}
export type UnscannedOutcome = { text: string } | { refused: string } | { failed: string } | { types: boolean[] };

installBufferMeter();
const job = workerData as UnscannedJob;
const tooLarge = () => new PdfTooLarge('over the buffer budget');

async function run(): Promise<UnscannedOutcome> {
  if (job.mode === 'types') {
    class Sub extends Uint8Array {}
    const sub = new Sub(4);
    const view = new Uint8Array(new ArrayBuffer(8), 2, 4);
    return {
      types: [
        new Uint8Array(2) instanceof Uint8Array,
        Buffer.alloc(2) instanceof Uint8Array,
        sub instanceof Sub && sub instanceof Uint8Array && sub.length === 4,
        Object.getPrototypeOf(new Uint8Array(1)) === Uint8Array.prototype,
        Uint8Array.from([1, 2, 3]).length === 3 && view.byteOffset === 2,
        new Float64Array(3).subarray(1) instanceof Float64Array,
      ],
    };
  }
  if (job.mode === 'swallowed') {
    // A reader that catches the refusal and goes on, as pdf.js does around a font or a page.
    const text = await withBufferBudget(1024 * 1024, tooLarge, async () => {
      try {
        new Uint8Array(2 * 1024 * 1024);
      } catch {}
      return 'read on';
    });
    return { text };
  }
  if (job.mode === 'wasm') {
    // As OpenJPEG's heap grows: 256 KiB fits a 1 MB budget, 2 MB more does not.
    const text = await withBufferBudget(1024 * 1024, tooLarge, async () => {
      const memory = new WebAssembly.Memory({ initial: 1, maximum: 1000 });
      memory.grow(4);
      memory.grow(32);
      return `${memory.buffer.byteLength}`;
    });
    return { text };
  }
  const bytes = Buffer.from(job.pdf ?? new Uint8Array());
  const limit = pdfBufferLimit(bytes.length, job.maxDecodedBytes ?? 0);
  return { text: (await withBufferBudget(limit, tooLarge, () => pdfToText(bytes))).text };
}

run().then(
  (outcome) => parentPort?.postMessage(outcome),
  (error: unknown) =>
    parentPort?.postMessage(
      error instanceof PdfTooLarge
        ? { refused: error.message }
        : { failed: String((error as Error)?.message ?? error) },
    ),
);
