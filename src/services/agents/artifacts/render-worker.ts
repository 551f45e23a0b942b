/**
 * Worker-thread side of renderer.ts: lays out the PDF and rasterises its pages off the main thread,
 * whose event loop would otherwise stop for the ~0.5 s (warm) to ~2 s (first use, fonts parsed) that
 * a page of mixed scripts takes here.
 */
import { parentPort } from 'node:worker_threads';
import { type PageSize, renderPages } from './page-image.js';
import { renderPdf } from './pdf.js';

export interface RenderJob {
  id: number;
  text: string;
  title: string;
  pages: PageSize[];
}

/** The job's clients have left: it is dropped, if it has not finished. */
export interface RenderCancel {
  cancel: number;
}

interface Rendered {
  id: number;
  ok: true;
  pdf: Uint8Array;
  pageCount: number;
  images: Uint8Array[];
}

export type RenderResult = { id: number; dropped: true } | Rendered | { id: number; ok: false; error: string };

/** Thrown inside a job whose clients have left; nothing is sent back for it. */
class Dropped extends Error {}

export async function renderJob(
  job: Omit<RenderJob, 'id'>,
  dropped: () => boolean = () => false,
): Promise<Omit<Rendered, 'id'>> {
  const pdf = await renderPdf(job.text, { title: job.title });
  // Pages past the last are the caller's to refuse, with the page count: none is rendered then.
  const valid = job.pages.every((p) => p.position <= pdf.pages);
  const stop = () => {
    if (dropped()) throw new Dropped();
  };
  const images = valid && job.pages.length > 0 ? await renderPages(pdf.bytes, job.pages, stop) : [];
  return { ok: true, pdf: pdf.bytes, pageCount: pdf.pages, images };
}

/** Jobs dropped by their callers; checked when a job starts and between its pages. */
const cancelled = new Set<number>();

parentPort?.on('message', async (message: RenderJob | RenderCancel) => {
  if ('cancel' in message) {
    cancelled.add(message.cancel);
    return;
  }
  const job = message;
  let result: RenderResult;
  try {
    // A job's message is handled after those sent before it: yield once, so a cancel sent
    // right after it is seen before any work.
    await new Promise((resolve) => setImmediate(resolve));
    if (cancelled.has(job.id)) throw new Dropped();
    result = { id: job.id, ...(await renderJob(job, () => cancelled.has(job.id))) };
  } catch (err) {
    if (err instanceof Dropped) {
      cancelled.delete(job.id);
      parentPort?.postMessage({ id: job.id, dropped: true } satisfies RenderResult);
      return;
    }
    result = { id: job.id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  cancelled.delete(job.id);
  parentPort?.postMessage(result);
});
