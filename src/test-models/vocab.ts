/**
 * A byte-level `gpt2` vocabulary: the 256 byte tokens, a few merged tokens (each reachable through
 * left-to-right merges, so the tokenizer can produce them) and special tokens.
 */

const TOKEN_NORMAL = 1;
const TOKEN_CONTROL = 3;
const TOKEN_USER_DEFINED = 4;

/** GPT-2's reversible byte → printable character map (`bytes_to_unicode`). */
function byteToChar(): string[] {
  const printable = (b: number) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
  const map: string[] = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) map[b] = String.fromCodePoint(printable(b) ? b : 256 + extra++);
  return map;
}

const BYTE_CHARS = byteToChar();

export function encodeBytes(text: string): string[] {
  return [...Buffer.from(text, 'utf8')].map((b) => BYTE_CHARS[b] as string);
}

export interface SpecialToken {
  text: string;
  /** Control tokens are hidden on detokenization; user-defined ones are matched in any text. */
  kind: 'control' | 'user';
}

export interface Vocab {
  tokens: string[];
  types: number[];
  merges: string[];
  /** Id of a token given its raw text (bytes, merged text, or a special token's text). */
  id(text: string): number;
}

/**
 * @param size the vocabulary's length when a model's shape asks for more tokens than these: filled
 * with normal tokens ` w<n>` (printable ASCII, so generated text is always valid), which the
 * tokenizer never produces (no merges lead to them) but a model may generate.
 */
export function buildVocab(mergedTexts: readonly string[], specials: readonly SpecialToken[], size = 0): Vocab {
  const tokens: string[] = [...BYTE_CHARS];
  const types: number[] = tokens.map(() => TOKEN_NORMAL);
  const merges: string[] = [];
  const byEncoded = new Map<string, number>(tokens.map((t, i) => [t, i]));
  const byRaw = new Map<string, number>();
  for (let b = 0; b < 256; b++) {
    const raw = Buffer.from([b]).toString('latin1');
    if (b < 128) byRaw.set(raw, b);
  }
  const addToken = (encoded: string, type: number): number => {
    const existing = byEncoded.get(encoded);
    if (existing !== undefined) return existing;
    tokens.push(encoded);
    types.push(type);
    byEncoded.set(encoded, tokens.length - 1);
    return tokens.length - 1;
  };
  for (const text of mergedTexts) {
    const chars = encodeBytes(text);
    let acc = chars[0] ?? '';
    for (const c of chars.slice(1)) {
      const merge = `${acc} ${c}`;
      acc += c;
      if (!byEncoded.has(acc)) merges.push(merge);
      addToken(acc, TOKEN_NORMAL);
    }
    byRaw.set(text, byEncoded.get(acc) as number);
  }
  for (const s of specials) {
    byRaw.set(s.text, addToken(s.text, s.kind === 'control' ? TOKEN_CONTROL : TOKEN_USER_DEFINED));
  }
  for (let n = 0; tokens.length < size; n++) addToken(encodeBytes(` w${n}`).join(''), TOKEN_NORMAL);
  return {
    tokens,
    types,
    merges,
    id(text: string): number {
      const found = byRaw.get(text);
      if (found === undefined) throw new Error(`token not in the vocabulary: ${JSON.stringify(text)}`);
      return found;
    },
  };
}
