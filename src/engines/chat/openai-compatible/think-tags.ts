const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * Splits reasoning that an upstream leaves inside `content` as `<think>…</think>` (llama.cpp server
 * with a template it does not read reasoning from, a raw completion proxy) into reasoning and text.
 * Text arrives in pieces split anywhere, a tag too: a piece that may be the start of a tag is held
 * until the next one decides. Only a reply that opens with `<think>` (after whitespace) is split.
 */
export class ThinkTagSplitter {
  private state: 'start' | 'thinking' | 'after' | 'text' = 'start';
  private held = '';

  /** Maps a piece of content to [reasoning, text]; either may be ''. */
  push(piece: string): [string, string] {
    if (this.state === 'text') return ['', piece];
    let input = this.held + piece;
    this.held = '';
    let reasoning = '';
    let text = '';
    if (this.state === 'start') {
      const lead = input.trimStart();
      if (lead.length < OPEN.length && OPEN.startsWith(lead)) {
        this.held = input;
        return ['', ''];
      }
      if (!lead.startsWith(OPEN)) {
        this.state = 'text';
        return ['', input];
      }
      this.state = 'thinking';
      input = lead.slice(OPEN.length);
    }
    if (this.state === 'thinking') {
      const end = input.indexOf(CLOSE);
      if (end === -1) {
        const keep = partialSuffix(input, CLOSE);
        reasoning = input.slice(0, input.length - keep);
        this.held = input.slice(input.length - keep);
        return [reasoning, ''];
      }
      reasoning = input.slice(0, end);
      input = input.slice(end + CLOSE.length);
      this.state = 'after';
    }
    // After `</think>`: the whitespace before the answer is not part of it.
    const trimmed = input.trimStart();
    if (trimmed !== '') {
      this.state = 'text';
      text = trimmed;
    }
    return [reasoning, text];
  }

  /** What is still held at the end of the reply (a lone `<thi` is text after all). */
  flush(): [string, string] {
    const held = this.held;
    this.held = '';
    if (this.state === 'thinking') return [held, ''];
    return ['', this.state === 'after' ? held.trimStart() : held];
  }
}

/** Length of the longest end of `text` that begins `tag`. */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
