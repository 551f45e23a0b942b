/**
 * Finds the first of a request's stop sequences in text that arrives in pieces. Text that could be
 * the start of a stop sequence is held back until the next piece shows whether it is; the text
 * before a match is given out and the rest is dropped, as Anthropic's `stop_sequences` do.
 */
export class StopScanner {
  private held = '';
  /** The stop sequence found, once one is. */
  matched: string | undefined = undefined;
  private readonly longest: number;

  constructor(private readonly sequences: readonly string[]) {
    this.longest = sequences.reduce((n, s) => Math.max(n, s.length), 0);
  }

  /** The text that may go out now (after a match, only what came before it). */
  push(text: string): string {
    if (this.sequences.length === 0) return text;
    if (this.matched !== undefined) return '';
    const buffer = this.held + text;
    let at = -1;
    for (const s of this.sequences) {
      const i = buffer.indexOf(s);
      if (i >= 0 && (at < 0 || i < at)) {
        at = i;
        this.matched = s;
      }
    }
    if (at >= 0) {
      this.held = '';
      return buffer.slice(0, at);
    }
    const keep = this.partialTail(buffer);
    this.held = buffer.slice(buffer.length - keep);
    return buffer.slice(0, buffer.length - keep);
  }

  /** What was held back: the text ended without completing a stop sequence. */
  flush(): string {
    const text = this.held;
    this.held = '';
    return text;
  }

  /** Length of the longest end of `text` that begins some stop sequence. */
  private partialTail(text: string): number {
    for (let n = Math.min(this.longest - 1, text.length); n > 0; n--) {
      const tail = text.slice(text.length - n);
      if (this.sequences.some((s) => s.startsWith(tail))) return n;
    }
    return 0;
  }
}
