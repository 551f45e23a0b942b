import PDFDocument from 'pdfkit';
import { type FontFace, faceBytes, faceFor } from './fonts.js';

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

interface Run {
  face: FontFace;
  text: string;
}

/** Break opportunities: whitespace, each CJK character (with closing punctuation kept on it), or a word. */
const TOKENS =
  /\s+|[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\u3040-\u30ff\uff00-\uffef][、。，．！？：；」』）》〉】\u3001\u3002\uff0c\uff01\uff1f]*|[^\s\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\u3040-\u30ff\uff00-\uffef]+/gu;
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;
const STRONG = /[\p{L}]/u;

/**
 * The translation as a PDF: paragraphs laid out here (line breaks at spaces and between CJK
 * characters), each character in the face that covers it. A paragraph whose first letter is
 * right-to-left is right-aligned with its runs in reverse order; within a run the font engine
 * orders and joins the Arabic glyphs. Mixed-direction lines beyond that are not reordered.
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
  const measure = (runs: Run[]) => runs.reduce((w, r) => w + use(r.face).widthOfString(r.text), 0);
  const maxWidth = width - 2 * margin;
  let y = margin;
  const newLine = () => {
    if (y + lineHeight > height - margin) {
      doc.addPage();
      y = margin;
    }
  };
  const draw = (line: Run[], rtl: boolean) => {
    newLine();
    const runs = rtl ? [...line].reverse() : line;
    let x = rtl ? width - margin - measure(line) : margin;
    for (const r of runs) {
      use(r.face).text(r.text, x, y, { lineBreak: false });
      x += doc.widthOfString(r.text);
    }
    y += lineHeight;
  };

  for (const paragraph of text.split('\n')) {
    const rtl = RTL.test(paragraph.match(STRONG)?.[0] ?? '');
    let line: Run[] = [];
    let lineWidth = 0;
    for (const token of paragraph.match(TOKENS) ?? []) {
      const runs = toRuns(token, line.at(-1)?.face);
      const w = measure(runs);
      if (lineWidth + w > maxWidth && line.length > 0) {
        draw(trimEnd(line), rtl);
        line = [];
        lineWidth = 0;
        if (/^\s+$/.test(token)) continue;
      }
      // A word wider than the whole line: cut it where it overflows.
      for (const r of w > maxWidth ? splitRuns(runs, maxWidth, measure) : [runs]) {
        if (line.length > 0 && lineWidth + measure(r) > maxWidth) {
          draw(line, rtl);
          line = [];
          lineWidth = 0;
        }
        line = merge(line, r);
        lineWidth += measure(r);
      }
    }
    if (line.length > 0) draw(trimEnd(line), rtl);
    else {
      newLine();
      y += lineHeight;
    }
  }
  const pages = doc.bufferedPageRange().count;
  doc.end();
  return ended.then(() => ({ bytes: Buffer.concat(chunks), pages }));
}

/** Characters grouped by face; whitespace keeps the face before it, so a line of one script is one run. */
function toRuns(token: string, previous: FontFace | undefined): Run[] {
  const runs: Run[] = [];
  for (const ch of token) {
    const last = runs.at(-1);
    const face = /\s/.test(ch) && (last?.face ?? previous) ? (last?.face ?? previous)! : faceFor(ch.codePointAt(0)!);
    if (last && last.face === face) last.text += ch;
    else runs.push({ face, text: ch });
  }
  return runs;
}

function merge(line: Run[], runs: Run[]): Run[] {
  const out = [...line];
  for (const r of runs) {
    const last = out.at(-1);
    if (last && last.face === r.face) out[out.length - 1] = { face: r.face, text: last.text + r.text };
    else out.push(r);
  }
  return out;
}

function trimEnd(line: Run[]): Run[] {
  const out = [...line];
  const last = out.at(-1);
  if (last) out[out.length - 1] = { ...last, text: last.text.trimEnd() };
  return out.filter((r) => r.text.length > 0);
}

function splitRuns(runs: Run[], maxWidth: number, measure: (r: Run[]) => number): Run[][] {
  const pieces: Run[][] = [];
  let current: Run[] = [];
  for (const r of runs) {
    for (const ch of r.text) {
      const next = merge(current, [{ face: r.face, text: ch }]);
      if (current.length > 0 && measure(next) > maxWidth) {
        pieces.push(current);
        current = [{ face: r.face, text: ch }];
      } else current = next;
    }
  }
  if (current.length > 0) pieces.push(current);
  return pieces;
}
