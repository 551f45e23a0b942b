import { createReadStream } from 'node:fs';

export interface JsonlLine {
  /** 1-based, counted from the start of the file. */
  number: number;
  /** The line's text, or undefined when it was longer than the limit (its bytes were not kept). */
  text: string | undefined;
  /** Byte offset just past the line's newline: where a resumed read starts. */
  end: number;
}

/**
 * The lines of a file from a byte offset, with their byte positions (readline gives none, and a
 * resumable import needs them). Memory is bounded by `maxLineBytes`: a longer line is skipped to
 * its newline and yielded with `text: undefined`, so one huge line cannot exhaust the heap.
 */
export async function* readLines(
  path: string,
  from: { offset: number; line: number },
  maxLineBytes: number,
): AsyncGenerator<JsonlLine> {
  let offset = from.offset;
  let number = from.line;
  let parts: Buffer[] = [];
  let length = 0;
  let oversized = false;
  const take = (end: number): JsonlLine => {
    number++;
    const text = oversized ? undefined : Buffer.concat(parts, length).toString('utf8').replace(/\r$/, '');
    parts = [];
    length = 0;
    oversized = false;
    return { number, text, end };
  };
  for await (const chunk of createReadStream(path, {
    start: offset,
    highWaterMark: 1 << 20,
  }) as AsyncIterable<Buffer>) {
    let at = 0;
    while (at < chunk.length) {
      const newline = chunk.indexOf(0x0a, at);
      const stop = newline < 0 ? chunk.length : newline;
      if (!oversized) {
        if (length + stop - at > maxLineBytes) {
          oversized = true;
          parts = [];
          length = 0;
        } else {
          parts.push(chunk.subarray(at, stop));
          length += stop - at;
        }
      }
      offset += stop - at;
      if (newline < 0) break;
      offset++;
      at = newline + 1;
      yield take(offset);
    }
  }
  if (length > 0 || oversized) yield take(offset);
}
