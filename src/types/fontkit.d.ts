// The part of fontkit (no published types) that fonts.ts uses: does a file read, has it a glyph.
declare module 'fontkit' {
  export interface Font {
    glyphForCodePoint(codePoint: number): unknown;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font | { fonts: Font[] };
}
