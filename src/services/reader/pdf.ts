import { bufferBudgetSpent } from './pdf-buffers.js';

/**
 * PDF to text with pdfjs-dist's legacy build (the one meant for Node). Lines are rebuilt from the
 * text items' end-of-line flags; pages are separated by blank lines. A PDF whose buffer budget is
 * spent (pdf-buffers.ts) is read no further.
 */

interface TextItem {
  str?: string;
  hasEOL?: boolean;
}
interface PdfPage {
  getTextContent(): Promise<{ items: TextItem[] }>;
  cleanup(): void;
}
interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
  getMetadata(): Promise<{ info?: { Title?: unknown } }>;
  destroy(): Promise<void>;
}
interface PdfJs {
  getDocument(source: Record<string, unknown>): { promise: Promise<PdfDocument> };
}

let pdfjs: Promise<PdfJs> | undefined;
const loadPdfJs = (): Promise<PdfJs> => {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs') as unknown as Promise<PdfJs>;
  return pdfjs;
};

export interface PdfText {
  title: string;
  text: string;
}

export async function pdfToText(bytes: Buffer, maxPages = 500): Promise<PdfText> {
  const { getDocument } = await loadPdfJs();
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, maxPages) && !bufferBudgetSpent(); n++) {
      const page = await doc.getPage(n);
      const { items } = await page.getTextContent();
      pages.push(
        items
          .map((item) => `${item.str ?? ''}${item.hasEOL ? '\n' : ''}`)
          .join('')
          .trim(),
      );
      page.cleanup();
    }
    const info = (await doc.getMetadata()).info;
    const title = typeof info?.Title === 'string' ? info.Title.trim() : '';
    return { title, text: pages.filter(Boolean).join('\n\n') };
  } finally {
    await doc.destroy();
  }
}
