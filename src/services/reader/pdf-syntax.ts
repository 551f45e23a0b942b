/**
 * Just enough of PDF's object syntax to read a stream's dictionary the way pdf.js's Lexer and Parser
 * do: whitespace and comments, names with `#xx` escapes, literal strings with nesting and escapes,
 * hex strings, numbers, `N G R` references, arrays and dictionaries, where a repeated key keeps its
 * last value and a token that is not a name in a key's place is skipped. The text is the file as
 * latin1 (one character a byte).
 */
export type PdfValue = string | number | boolean | null | PdfName | PdfRef | PdfValue[] | PdfDict | PdfCommand;

export class PdfName {
  constructor(readonly name: string) {}
}
export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
export class PdfCommand {
  constructor(readonly cmd: string) {}
}
export type PdfDict = Map<string, PdfValue>;

/** Thrown where pdf.js's Lexer or Parser would fail (an illegal character, the end of the file). */
export class PdfSyntaxError extends Error {}

/** pdf.js's specialChars: 1 whitespace, 2 a delimiter. */
const CLASS: number[] = Array.from({ length: 256 }, (_, code) =>
  [0, 9, 10, 12, 13, 32].includes(code) ? 1 : '()<>[]{}/%'.includes(String.fromCharCode(code)) ? 2 : 0,
);
export const isWhite = (code: number): boolean => CLASS[code] === 1;
/** Ends a name, number or command token. */
export const isSpecial = (code: number): boolean => (CLASS[code] ?? 0) !== 0;

/** Past whitespace and comments. */
export function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x25) {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (CLASS[code] === 1) i++;
    else break;
  }
  return i;
}

type Token = { kind: 'cmd'; cmd: string } | { kind: 'value'; value: PdfValue };
const value = (v: PdfValue, end: number) => ({ token: { kind: 'value' as const, value: v }, end });
const cmd = (name: string, end: number) => ({ token: { kind: 'cmd' as const, cmd: name }, end });

/** The next token from `at` (after whitespace and comments), and where it ends. */
function token(text: string, at: number): { token: Token; end: number } {
  let i = skipSpace(text, at);
  if (i >= text.length) throw new PdfSyntaxError('end of file');
  const c = text[i] as string;
  if ('0123456789+-.'.includes(c)) {
    let j = i + 1;
    while (j < text.length && !isSpecial(text.charCodeAt(j))) j++;
    const number = Number.parseFloat(text.slice(i, j).replace(/^([+-])\1/, '$1'));
    return value(Number.isFinite(number) ? number : 0, j);
  }
  switch (c) {
    case '(':
      return value('', literalEnd(text, i));
    case '/': {
      let j = i + 1;
      while (j < text.length && !isSpecial(text.charCodeAt(j))) j++;
      const name = text
        .slice(i + 1, j)
        .replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      return value(new PdfName(name), j);
    }
    case '[':
    case ']':
    case '{':
    case '}':
      return cmd(c, i + 1);
    case '<': {
      if (text[i + 1] === '<') return cmd('<<', i + 2);
      const close = text.indexOf('>', i + 1);
      return value('', close < 0 ? text.length : close + 1);
    }
    case '>':
      return text[i + 1] === '>' ? cmd('>>', i + 2) : cmd('>', i + 1);
    case ')':
      throw new PdfSyntaxError('illegal character )');
  }
  const start = i;
  while (++i < text.length && !isSpecial(text.charCodeAt(i)));
  const word = text.slice(start, i);
  if (word === 'true' || word === 'false') return value(word === 'true', i);
  if (word === 'null') return value(null, i);
  return cmd(word, i);
}

/** Where a literal string that opens at `at` closes (nested parentheses, backslash escapes). */
function literalEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return text.length;
}

/**
 * The object at `at` and where it ends, as pdf.js's Parser.getObj reads it: a command other than
 * `[` and `<<` is a value of its own (so `/Key >>` takes the `>>` as the key's value).
 */
export function parseObject(text: string, at: number, depth = 0): { value: PdfValue; end: number } {
  if (depth > 64) throw new PdfSyntaxError('nested too deep');
  const first = token(text, at);
  if (first.token.kind === 'value') {
    const number = first.token.value;
    if (typeof number === 'number' && Number.isInteger(number)) {
      const second = tryToken(text, first.end);
      if (second?.token.kind === 'value' && Number.isInteger(second.token.value)) {
        const third = tryToken(text, second.end);
        if (third?.token.kind === 'cmd' && third.token.cmd === 'R')
          return { value: new PdfRef(number, second.token.value as number), end: third.end };
      }
    }
    return { value: number, end: first.end };
  }
  if (first.token.cmd === '[') {
    const array: PdfValue[] = [];
    let i = first.end;
    for (;;) {
      const next = token(text, i);
      if (next.token.kind === 'cmd' && next.token.cmd === ']') return { value: array, end: next.end };
      const item = parseObject(text, i, depth + 1);
      array.push(item.value);
      i = item.end;
    }
  }
  if (first.token.cmd === '<<') {
    const dict: PdfDict = new Map();
    let i = first.end;
    for (;;) {
      const next = token(text, i);
      if (next.token.kind === 'cmd' && next.token.cmd === '>>') return { value: dict, end: next.end };
      if (!(next.token.kind === 'value' && next.token.value instanceof PdfName)) {
        i = next.end;
        continue;
      }
      const item = parseObject(text, next.end, depth + 1);
      dict.set(next.token.value.name, item.value);
      i = item.end;
    }
  }
  return { value: new PdfCommand(first.token.cmd), end: first.end };
}

function tryToken(text: string, at: number): ReturnType<typeof token> | undefined {
  try {
    return token(text, at);
  } catch {
    return undefined;
  }
}

/** `dict.get(key1, key2)` as pdf.js has it: the first key that is present. */
export const dictGet = (dict: PdfDict, ...keys: string[]): PdfValue | undefined =>
  keys.map((key) => dict.get(key)).find((value) => value !== undefined);
