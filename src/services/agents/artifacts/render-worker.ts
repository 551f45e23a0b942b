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

export type RenderResult =
  | { id: number; ok: true; pdf: Uint8Array; pageCount: number; images: Uint8Array[] }
  | { id: number; ok: false; error: string };

export async function renderJob(job: Omit<RenderJob, 'id'>): Promise<Omit<RenderResult & { ok: true }, 'id'>> {
  const pdf = await renderPdf(job.text, { title: job.title });
  // Pages past the last are the caller's to refuse, with the page count: none is rendered then.
  const valid = job.pages.every((p) => p.position <= pdf.pages);
  const images = valid && job.pages.length > 0 ? await renderPages(pdf.bytes, job.pages) : [];
  return { ok: true, pdf: pdf.bytes, pageCount: pdf.pages, images };
}

parentPort?.on('message', async (job: RenderJob) => {
  let result: RenderResult;
  try {
    result = { id: job.id, ...(await renderJob(job)) };
  } catch (err) {
    result = { id: job.id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  parentPort?.postMessage(result);
});
