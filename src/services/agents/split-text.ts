/**
 * Long input: pieces that fit the model's context, cut at paragraph breaks (then sentence ends,
 * then anywhere, for a paragraph too long on its own). Each piece keeps the text that separated
 * it from the one before, so the translations re-join with the original breaks.
 */

export interface Piece {
  text: string;
  /** What stood between the previous piece and this one in the input ('' for the first). */
  separator: string;
}

export type CountTokens = (text: string) => Promise<number>;

const PARAGRAPH_BREAK = /(\n[ \t]*\n\s*)/;
/** After a sentence end: the whitespace that follows, or nothing after CJK full stops. */
const SENTENCE_END = /(?<=[.!?…。！？])(\s+|(?<=[。！？]))/;

export async function splitText(text: string, budget: number, count: CountTokens): Promise<Piece[]> {
  const whole = text.trim();
  if ((await count(whole)) <= budget) return [{ text: whole, separator: '' }];
  const units: Unit[] = [];
  for (const unit of await units_(whole, PARAGRAPH_BREAK, budget, count)) {
    if (unit.tokens <= budget) {
      units.push(unit);
      continue;
    }
    // A paragraph longer than a piece: by sentences, and a sentence longer than a piece by length.
    for (const [i, s] of (await units_(unit.text, SENTENCE_END, budget, count)).entries()) {
      const first = { ...s, separator: i === 0 ? unit.separator : s.separator };
      if (s.tokens <= budget) units.push(first);
      else units.push(...hardSplit(first, Math.ceil(s.tokens / budget)));
    }
  }
  return group(units, budget);
}

interface Unit extends Piece {
  tokens: number;
}

async function units_(text: string, by: RegExp, budget: number, count: CountTokens): Promise<Unit[]> {
  const parts = text.split(by);
  const out: Unit[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const body = parts[i] ?? '';
    const separator = i === 0 ? '' : (parts[i - 1] ?? '');
    if (!body) {
      // Two separators in a row: fold the empty piece's break into the next one.
      if (parts[i + 1] !== undefined) parts[i + 1] = separator + parts[i + 1];
      continue;
    }
    // Units far below the budget need no exact count: no tokenizer makes more tokens than UTF-8 bytes.
    const tokens = body.length * 4 < budget ? body.length * 4 : await count(body);
    out.push({ text: body, separator, tokens });
  }
  return out;
}

function hardSplit(unit: Unit, n: number): Unit[] {
  const chars = [...unit.text];
  const size = Math.ceil(chars.length / n);
  const out: Unit[] = [];
  for (let i = 0; i < chars.length; i += size) {
    out.push({
      text: chars.slice(i, i + size).join(''),
      separator: i === 0 ? unit.separator : '',
      tokens: Math.ceil(unit.tokens / n),
    });
  }
  return out;
}

/** Consecutive units joined while they fit, each joined with its own separator. */
function group(units: Unit[], budget: number): Piece[] {
  const pieces: Piece[] = [];
  let current: Unit | undefined;
  for (const u of units) {
    if (current && current.tokens + u.tokens <= budget) {
      current = {
        text: current.text + u.separator + u.text,
        separator: current.separator,
        tokens: current.tokens + u.tokens,
      };
      continue;
    }
    if (current) pieces.push({ text: current.text, separator: current.separator });
    current = u;
  }
  if (current) pieces.push({ text: current.text, separator: current.separator });
  return pieces;
}
