import { createCanvas } from '@napi-rs/canvas';

interface PdfJsPage {
  getViewport(o: { scale: number }): { width: number; height: number };
  render(o: { canvasContext: unknown; viewport: unknown }): { promise: Promise<void> };
}
interface PdfJsDocument {
  numPages: number;
  getPage(n: number): Promise<PdfJsPage>;
  destroy(): Promise<void>;
}
interface PdfJs {
  getDocument(o: { data: Uint8Array; isEvalSupported: boolean; disableFontFace: boolean }): {
    promise: Promise<PdfJsDocument>;
  };
}

let pdfjs: Promise<PdfJs> | undefined;
const loadPdfJs = () => {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs') as unknown as Promise<PdfJs>;
  return pdfjs;
};

export interface PageSize {
  position: number;
  width: number;
  height: number;
}

/**
 * PNGs of pages of a PDF, rendered by pdfjs (the glyphs drawn as outlines from the embedded fonts)
 * on a Skia canvas, one point of `width` × `height` a pixel. A page whose shape differs from the
 * size asked for is scaled to fit and centred on white.
 */
export async function renderPages(pdf: Uint8Array, sizes: PageSize[], beforePage?: () => void): Promise<Buffer[]> {
  const lib = await loadPdfJs();
  // pdfjs takes ownership of (detaches) the buffer it is given: hand it a copy.
  const doc = await lib.getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, disableFontFace: true })
    .promise;
  try {
    const out: Buffer[] = [];
    for (const size of sizes) {
      beforePage?.(); // throws when the job is dropped
      const page = await doc.getPage(size.position);
      const natural = page.getViewport({ scale: 1 });
      const scale = Math.min(size.width / natural.width, size.height / natural.height);
      const viewport = page.getViewport({ scale });
      const canvas = createCanvas(size.width, size.height);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, size.width, size.height);
      ctx.translate((size.width - viewport.width) / 2, (size.height - viewport.height) / 2);
      await page.render({ canvasContext: ctx, viewport }).promise;
      out.push(await canvas.encode('png'));
    }
    return out;
  } finally {
    await doc.destroy();
  }
}
