import PDFDocument from 'pdfkit';
import { type FontFace, faceBytes } from './fonts.js';
import { layoutParagraph, type Run } from './text-layout.js';

export interface PdfOptions {
  /** Page size in points; default A4. */
  width?: number;
  height?: number;
  margin?: number;
  fontSize?: number;
  title?: string;
}

export interface RenderedPdf {
  bytes: Buffer;
  pages: number;
}

/**
 * The translation as a PDF (pdfkit): one line of text a paragraph line, laid out by
 * text-layout.ts, each character in the Noto face that has it (fonts.ts), the fonts embedded as
 * subsets of the glyphs used, so the text can be selected and extracted.
 */
export function renderPdf(text: string, options: PdfOptions = {}): Promise<RenderedPdf> {
  const width = options.width ?? 595;
  const height = options.height ?? 842;
  const margin = options.margin ?? 56;
  const size = options.fontSize ?? 12;
  const lineHeight = size * 1.6;
  const doc = new PDFDocument({
    size: [width, height],
    margin,
    bufferPages: true,
    info: { Title: options.title ?? 'Translation', Creator: 'gen-platform' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const registered = new Set<string>();
  const use = (face: FontFace) => {
    if (!registered.has(face.name)) {
      doc.registerFont(face.name, faceBytes(face));
      registered.add(face.name);
    }
    return doc.font(face.name).fontSize(size);
  };
  const measure = (r: Run) => use(r.face).widthOfString(r.text);
  let y = margin;
  const advance = () => {
    if (y + lineHeight > height - margin) {
      doc.addPage();
      y = margin;
    }
  };
  for (const paragraph of text.split('\n')) {
    const lines = layoutParagraph(paragraph, width - 2 * margin, measure);
    if (lines.length === 0) advance();
    for (const line of lines) {
      advance();
      let x = line.rtl ? width - margin - line.width : margin;
      for (const r of line.runs) {
        // On the baseline: faces of different ascent placed by their tops would not line up.
        use(r.face).text(r.text, x, y + size * 1.15, { lineBreak: false, baseline: 'alphabetic' });
        x += measure(r);
      }
      y += lineHeight;
    }
    if (lines.length === 0) y += lineHeight;
  }
  const pages = doc.bufferedPageRange().count;
  doc.end();
  return ended.then(() => ({ bytes: Buffer.concat(chunks), pages }));
}
