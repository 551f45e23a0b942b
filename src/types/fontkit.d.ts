// The part of fontkit (no published types) that fonts.ts uses to check that a font file reads.
declare module 'fontkit' {
  export interface Font {
    glyphForCodePoint(codePoint: number): unknown;
  }
  export function create(buffer: Buffer): Font | { fonts: Font[] };
}
