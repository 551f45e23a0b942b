/**
 * Cuts the arguments of a tool call out of the text node-llama-cpp streams while the model writes
 * them: that text also carries what follows the arguments (blank lines, the template's end-of-call
 * markup) before its stop detector fires. A small JSON scanner passes through the one top-level
 * object, from its `{` to its matching `}`, and nothing after it. Text that does not start an
 * object is held back: the caller then sends the parsed parameters whole.
 */
export class ParamsText {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private state: 'before' | 'object' | 'after' | 'unstructured' = 'before';

  /** Whether the whole object has been passed through. */
  get complete(): boolean {
    return this.state === 'after';
  }

  /** Whether any text has been passed through. */
  get started(): boolean {
    return this.state === 'object' || this.state === 'after';
  }

  /** The part of `chunk` that belongs to the arguments object ('' for none). */
  push(chunk: string): string {
    let start = 0;
    if (this.state === 'before') {
      const first = chunk.search(/\S/);
      if (first < 0) return '';
      if (chunk[first] !== '{') {
        this.state = 'unstructured';
        return '';
      }
      this.state = 'object';
      start = first;
    }
    if (this.state !== 'object') return '';
    for (let i = start; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
      } else if (c === '"') this.inString = true;
      else if (c === '{' || c === '[') this.depth++;
      else if ((c === '}' || c === ']') && --this.depth === 0) {
        this.state = 'after';
        return chunk.slice(start, i + 1);
      }
    }
    return chunk.slice(start);
  }
}
