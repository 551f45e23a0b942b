import { StringDecoder } from 'node:string_decoder';

/** Thrown when one event (its data lines so far and its unfinished line) grows past the decoder's cap. */
export class SseEventTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`one stream event exceeded ${limit} characters`);
    this.name = 'SseEventTooLargeError';
  }
}

/**
 * Incremental Server-Sent Events decoder. Bytes arrive split anywhere (inside a multi-byte
 * character, between `\r` and `\n`, inside `\n\n`); `next()` hands out each complete event's data
 * as soon as its blank line has arrived, and nothing before.
 *
 * Memory is bounded by `maxEventChars`: the event being received (its data lines and its unfinished
 * line) never holds more, and the unfinished line is scanned once, not again with every chunk, and
 * copied once: the chunks of a line still without its end are kept apart and joined when it ends,
 * so an upstream that sends one endless line costs a bounded buffer and linear time before the
 * error (joining them to the buffer chunk by chunk copied the whole line again with every chunk).
 */
export class SseDecoder {
  /**
   * Node's native decoder: the same text as a streaming TextDecoder (U+FFFD for bad bytes, a
   * character split across chunks held back) at a fraction of its cost per chunk; TextDecoder's
   * dropping of a leading byte-order mark is done by hand.
   */
  private readonly utf8 = new StringDecoder('utf8');
  private started = false;
  private buffer = '';
  private pos = 0;
  /** Where the search for the next line end resumes: the unfinished line before it has no `\n`. */
  private scanned = 0;
  /** Text after `buffer`, which is scanned to its end: chunks with no line end, not joined yet. */
  private pieces: string[] = [];
  private piecesLength = 0;
  private data: string | undefined = undefined;
  private errorEvent = false;
  private lastWasCR = false;
  /** Whether the event last returned by `next()` came in `error:` lines (llama.cpp server's way). */
  isError = false;

  constructor(private readonly maxEventChars = Number.POSITIVE_INFINITY) {}

  feed(chunk: Uint8Array): void {
    let text = this.utf8.write(chunk);
    if (!this.started && text !== '') {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.lastWasCR && text.charCodeAt(0) === 10) text = text.slice(1);
    this.lastWasCR = false;
    // Lines may end in CRLF, LF or CR (SSE spec); normalising once per chunk keeps the scan to one indexOf.
    if (text.indexOf('\r') !== -1) {
      this.lastWasCR = text.charCodeAt(text.length - 1) === 13;
      text = text.replace(/\r\n?/g, '\n');
    }
    if (text === '') return;
    const scannedAll = this.scanned >= this.buffer.length;
    if (scannedAll && text.indexOf('\n') === -1) {
      this.pieces.push(text);
      this.piecesLength += text.length;
      return;
    }
    const held = this.takePieces();
    if (this.pos === this.buffer.length && held === '') {
      this.buffer = text;
      this.scanned = 0;
    } else {
      const rest = this.buffer.slice(this.pos);
      // The held pieces have no line end: the scan resumes after them.
      this.scanned = scannedAll ? rest.length + held.length : Math.max(0, this.scanned - this.pos);
      this.buffer = rest + held + text;
    }
    this.pos = 0;
  }

  /** Data of the next complete event, or undefined until more bytes arrive. Throws past the cap. */
  next(): string | undefined {
    const buffer = this.buffer;
    for (;;) {
      const end = buffer.indexOf('\n', Math.max(this.pos, this.scanned));
      if (end === -1) {
        this.scanned = buffer.length;
        if (buffer.length - this.pos + this.piecesLength + (this.data?.length ?? 0) > this.maxEventChars) {
          this.overflow();
        }
        return undefined;
      }
      const start = this.pos;
      this.pos = end + 1;
      this.scanned = this.pos;
      if (end === start) {
        if (this.data === undefined || this.data === '') {
          this.data = undefined;
          this.errorEvent = false;
          continue;
        }
        const data = this.data;
        this.isError = this.errorEvent;
        this.data = undefined;
        this.errorEvent = false;
        return data;
      }
      this.line(buffer, start, end);
    }
  }

  private overflow(): never {
    // Drop what was held: the decoder is done, and its caller ends the stream.
    this.buffer = '';
    this.pos = 0;
    this.scanned = 0;
    this.pieces = [];
    this.piecesLength = 0;
    this.data = undefined;
    throw new SseEventTooLargeError(this.maxEventChars);
  }

  private takePieces(): string {
    if (this.pieces.length === 0) return '';
    const held = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join('');
    this.pieces = [];
    this.piecesLength = 0;
    return held;
  }

  private line(buffer: string, start: number, end: number): void {
    const colon = buffer.indexOf(':', start);
    const fieldEnd = colon === -1 || colon > end ? end : colon;
    const fieldLength = fieldEnd - start;
    if (fieldLength === 0) return; // a comment (keep-alive ping)
    let valueStart = fieldEnd === end ? end : fieldEnd + 1;
    if (buffer.charCodeAt(valueStart) === 32 && valueStart < end) valueStart++;
    const isData = fieldLength === 4 && buffer.startsWith('data', start);
    const isError = !isData && fieldLength === 5 && buffer.startsWith('error', start);
    if (!isData && !isError) return; // event:, id:, retry: carry nothing we use
    if (isError) this.errorEvent = true;
    const value = buffer.slice(valueStart, end);
    this.data = this.data === undefined ? value : `${this.data}\n${value}`;
    if (this.data.length > this.maxEventChars) this.overflow();
  }
}
