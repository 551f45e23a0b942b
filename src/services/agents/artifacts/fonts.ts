import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { packageRoot } from '../../../util/package-root.js';

/**
 * The fonts of the PDF: Noto Sans from the @fontsource packages, which ship each family cut into
 * unicode-range files (a CJK family in ~100 of them). A character takes the first face whose range
 * covers it, so a document loads only the files its characters need, and the PDF library embeds
 * only the glyphs used (subsetting). Order: Latin, Cyrillic, Greek, Vietnamese, Devanagari (Noto Sans),
 * Arabic, Hebrew, Thai, then Chinese and Japanese (Noto Sans SC), then Korean (Noto Sans KR).
 */
export const FONT_FAMILIES = [
  { pkg: '@fontsource/noto-sans', only: undefined },
  { pkg: '@fontsource/noto-sans-arabic', only: /-arabic-arabic-/ },
  { pkg: '@fontsource/noto-sans-hebrew', only: /-hebrew-hebrew-/ },
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
  for (const { pkg, only } of FONT_FAMILIES) {
    const dir = fontDir(pkg);
    for (const { file, unicodeRange } of fontFaceFiles(readFileSync(path.join(dir, 'index.css'), 'utf8'), only)) {
      const ranges = unicodeRange.split(',').map((r): [number, number] => {
        const [a, b] = r.trim().replace(/^U\+/i, '').split('-');
        return [Number.parseInt(a!, 16), Number.parseInt(b ?? a!, 16)];
      });
      out.push({ name: `f${out.length}`, file: path.join(dir, 'files', file), ranges });
    }
  }
  if (out.length === 0) throw new Error('no font faces found in the @fontsource packages');
  return out;
}

/** The faces a family's index.css declares (the 400 weight), as file names without extension. */
export function fontFaceFiles(css: string, only: RegExp | undefined): { file: string; unicodeRange: string }[] {
  const out: { file: string; unicodeRange: string }[] = [];
  for (const m of css.matchAll(/url\(\.\/files\/([^)]+)\.woff2\)[^;]*;\s*unicode-range: ([^;]+);/g)) {
    if (!only || only.test(m[1]!)) out.push({ file: m[1]!, unicodeRange: m[2]! });
  }
  return out;
}

/**
 * Where a family's files are: `dist/fonts/<package>` holds the ones the PDF reads (the build copies
 * them there, and the published package ships them instead of the packages' every weight); a
 * checkout not built yet reads the @fontsource package itself (a devDependency).
 */
function fontDir(pkg: string): string {
  const shipped = path.join(packageRoot().dir, 'dist', 'fonts', pkg);
  return existsSync(path.join(shipped, 'index.css')) ? shipped : path.dirname(require.resolve(pkg));
}

export function fontFaces(): FontFace[] {
  faces ??= loadFaces();
  return faces;
}

const chosen = new Map<number, FontFace>();

/**
 * The face for a code point: the first whose range covers it and whose font has a glyph for it
 * (the packages' ranges overstate: Noto Sans SC's files claim Hangul they do not carry), else the
 * first face (a missing-glyph box).
 */
export function faceFor(codePoint: number): FontFace {
  let face = chosen.get(codePoint);
  if (face) return face;
  const all = fontFaces();
  face =
    all.find(
      (f) =>
        f.ranges.some(([a, b]) => codePoint >= a && codePoint <= b) &&
        parsed(f)?.hasGlyphForCodePoint(codePoint) === true,
    ) ?? all[0]!;
  if (chosen.size < 100_000) chosen.set(codePoint, face);
  return face;
}

const fonts = new Map<string, fontkit.Font | null>();

/**
 * The face's font, parsed, or null when its file does not read: one of the packages' WOFF files
 * (noto-sans-sc-101) has a cmap fontkit cannot parse, and its WOFF2 twin reads but fontkit subsets
 * WOFF2 into a font without glyphs; such a face is passed over and the next that covers the
 * character serves (Noto Sans KR carries the Chinese characters of that file).
 */
function parsed(face: FontFace): fontkit.Font | null {
  let font = fonts.get(face.file);
  if (font === undefined) {
    try {
      font = fontkit.create(faceBytes(face)) as fontkit.Font;
      font.hasGlyphForCodePoint(0x20);
    } catch {
      // Logged nowhere on purpose: the packages' files are fixed, and the fallback is the next face.
      font = null;
    }
    fonts.set(face.file, font);
  }
  return font;
}

const bytes = new Map<string, Buffer>();

/** A face's WOFF file (fontkit cannot subset WOFF2 reliably), kept: a few faces serve most documents. */
export function faceBytes(face: FontFace): Buffer {
  let b = bytes.get(face.file);
  if (!b) {
    b = readFileSync(`${face.file}.woff`);
    if (bytes.size < 256) bytes.set(face.file, b);
  }
  return b;
}
