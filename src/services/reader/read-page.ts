import { decodeBody } from './charset.js';
import { contentKind } from './content-kind.js';
import { formatPlain } from './format.js';
import { plainResult, readHtml } from './html-reader.js';
import { pdfToText } from './pdf.js';
import { pdfBufferLimit, withBufferBudget } from './pdf-buffers.js';
import { checkPdfStreams, PdfTooLarge, pdfTooLarge } from './pdf-streams.js';
import type { ReaderRequest, ReaderResult } from './types.js';

/**
 * Everything the reader does to a fetched page once its bytes are in: decoding, parsing, extraction
 * and formatting. It runs in a worker thread (extract-worker.ts), where a huge page or a PDF holds up
 * no other request; nothing here knows about threads.
 */
export interface PageJob {
  /** The page's bytes as served, or HTML already rendered to text (by the browser). */
  body: Uint8Array | string;
  contentType: string;
  url: string;
  request: ReaderRequest;
  /** What a PDF's streams may decode to in total, bytes (pdf-streams.ts). */
  pdfMaxDecodedBytes: number;
}

export type PageReading =
  | {
      ok: true;
      result: ReaderResult;
      /** HTML only: the page's word count and whether it runs scripts (the `auto` browser's test). */
      words?: number;
      hasScripts?: boolean;
    }
  /** The page cannot be read; the reason is told to the client (1234). */
  | { ok: false; reason: string };

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export async function readPage(job: PageJob): Promise<PageReading> {
  const { request } = job;
  if (typeof job.body === 'string') return readHtmlText(job.body, job);
  const body = asBuffer(job.body);
  const kind = contentKind(job.contentType, body);
  switch (kind) {
    case 'html':
      return readHtmlText(decodeBody(body, job.contentType), job);
    case 'pdf': {
      let pdf: Awaited<ReturnType<typeof pdfToText>>;
      try {
        const max = job.pdfMaxDecodedBytes;
        const bound = `${Math.round(max / 1024 / 1024)} MB (reader.pdf_max_decoded_mb)`;
        await checkPdfStreams(body, max, bound);
        // What pdf.js allocates is bounded too, whatever the scan made of the file.
        pdf = await withBufferBudget(
          pdfBufferLimit(body.length, max),
          () => pdfTooLarge(bound),
          () => pdfToText(body),
        );
      } catch (error) {
        if (error instanceof PdfTooLarge) return { ok: false, reason: error.message };
        return { ok: false, reason: `the PDF could not be read (${error instanceof Error ? error.message : error})` };
      }
      return { ok: true, result: plainResult(formatPlain(pdf.text, 'text', request), job.url, pdf.title) };
    }
    case 'json':
    case 'text':
      return {
        ok: true,
        result: plainResult(formatPlain(decodeBody(body, job.contentType), kind, request), job.url),
      };
    default:
      return { ok: false, reason: `unsupported content type ${job.contentType || '(none)'}` };
  }
}

function readHtmlText(html: string, job: PageJob): PageReading {
  const reading = readHtml(html, job.url, job.request);
  return { ok: true, result: reading.result, words: reading.words, hasScripts: reading.hasScripts };
}
