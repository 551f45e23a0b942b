/**
 * A model's reply on its way to the client, cleaned as `cleanReply` cleans a whole one: models
 * often wrap a translation in a code fence or in the prompt's XML tags although told not to. The
 * start is held until it shows whether a wrapper opens it, and the last characters until the end,
 * where a closing wrapper is cut; what is emitted, joined, is the translation.
 */
const OPENING = /^(```[\w-]*[ \t]*\n|<(TRANSLATION|IMPROVED_TRANSLATION)>[ \t]*\n?)/i;
const CLOSING = /\s*(\n```|<\/(TRANSLATION|IMPROVED_TRANSLATION)>)?\s*$/i;
/** Longer than the longest wrapper (`<IMPROVED_TRANSLATION>` and its closing tag) and its spaces. */
const HEAD = 24;
const TAIL = 32;

export class ReplyStream {
  private head = '';
  private started = false;
  private tail = '';
  private text = '';

  constructor(private readonly emit: (text: string) => void) {}

  push(delta: string): void {
    if (this.started) {
      this.hold(delta);
      return;
    }
    this.head += delta;
    const t = this.head.trimStart();
    if (t.length < HEAD) return;
    this.started = true;
    this.hold(t.replace(OPENING, ''));
  }

  /** Emits what was held back; returns the whole text emitted. */
  end(): string {
    if (!this.started) {
      this.started = true;
      this.tail = this.head.trimStart().replace(OPENING, '');
    }
    const rest = this.tail.replace(CLOSING, '');
    this.tail = '';
    if (rest) this.send(rest);
    return this.text;
  }

  private hold(text: string): void {
    this.tail += text;
    let cut = this.tail.length - TAIL;
    if (cut <= 0) return;
    // Never split a surrogate pair between two chunks.
    const code = this.tail.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
    this.send(this.tail.slice(0, cut));
    this.tail = this.tail.slice(cut);
  }

  private send(text: string): void {
    if (!text) return;
    // Leading whitespace of the reply is never sent (the whole-reply cleaner trims it too).
    const out = this.text === '' ? text.trimStart() : text;
    if (!out) return;
    this.text += out;
    this.emit(out);
  }
}
