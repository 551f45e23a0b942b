import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';

/**
 * The fonts of the PDF: Noto Sans from the @fontsource packages, which ship each family cut into
 * unicode-range files (a CJK family in ~100 of them). A character takes the first face whose range
 * covers it, so a document loads only the files its characters need, and the PDF library embeds
 * only the glyphs used (subsetting). Order: Latin, Cyrillic, Greek, Vietnamese (Noto Sans), Arabic,
 * Thai, then Chinese and Japanese (Noto Sans SC), then Korean (Noto Sans KR).
 */
const FAMILIES = [
  { pkg: '@fontsource/noto-sans', only: undefined },
  { pkg: '@fontsource/noto-sans-arabic', only: /-arabic-arabic-/ },
  { pkg: '@fontsource/noto-sans-thai', only: /-thai-thai-/ },
  { pkg: '@fontsource/noto-sans-sc', only: undefined },
  { pkg: '@fontsource/noto-sans-kr', only: undefined },
];

export interface FontFace {
  /** Name the PDF registers the face under. */
  name: string;
  /** Path of the face's files without the extension (`.woff`, `.woff2`). */
  file: string;
  ranges: [number, number][];
}

const require = createRequire(import.meta.url);
let faces: FontFace[] | undefined;

function loadFaces(): FontFace[] {
  const out: FontFace[] = [];
  for (const { pkg, only } of FAMILIES) {
    const dir = path.dirname(require.resolve(pkg));
    const css = readFileSync(path.join(dir, 'index.css'), 'utf8');
    for (const m of css.matchAll(/url\(\.\/files\/([^)]+)\.woff2\)[^;]*;\s*unicode-range: ([^;]+);/g)) {
      const file = m[1]!;
      if (only && !only.test(file)) continue;
      const ranges = m[2]!.split(',').map((r): [number, number] => {
        const [a, b] = r.trim().replace(/^U\+/i, '').split('-');
        return [Number.parseInt(a!, 16), Number.parseInt(b ?? a!, 16)];
      });
      out.push({ name: `f${out.length}`, file: path.join(dir, 'files', file), ranges });
    }
  }
  if (out.length === 0) throw new Error('no font faces found in the @fontsource packages');
  return out;
}

export function fontFaces(): FontFace[] {
  faces ??= loadFaces();
  return faces;
}

/** The face for a code point: the first that covers it, else the first face (a missing-glyph box). */
export function faceFor(codePoint: number): FontFace {
  const all = fontFaces();
  for (const face of all) {
    for (const [a, b] of face.ranges) if (codePoint >= a && codePoint <= b) return face;
  }
  return all[0]!;
}

const bytes = new Map<string, Buffer>();

/**
 * A face's font file, kept, since the same few faces serve most documents. WOFF first: fontkit
 * cannot subset composite glyphs out of WOFF2 (accented Latin breaks), but one of the packages'
 * WOFF files (noto-sans-sc-101) has a cmap fontkit cannot read, so a WOFF that does not read
 * falls back to its WOFF2 twin (every WOFF2 file reads: checked over all of them).
 */
export function faceBytes(face: FontFace): Buffer {
  let b = bytes.get(face.file);
  if (!b) {
    b = readFileSync(`${face.file}.woff`);
    if (!readable(b)) b = readFileSync(`${face.file}.woff2`);
    if (bytes.size < 256) bytes.set(face.file, b);
  }
  return b;
}

function readable(font: Buffer): boolean {
  try {
    const f = fontkit.create(font) as fontkit.Font;
    f.glyphForCodePoint(0x20);
    return true;
  } catch {
    // The cmap or another table does not parse: the caller takes the other format.
    return false;
  }
}
