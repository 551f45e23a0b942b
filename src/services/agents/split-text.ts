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

/**
 * Units are sized with the text's own density (its exact count over its length, with a margin) and
 * counted exactly only when they may not fit; each piece is then counted once and cut again if the
 * estimate was short. Calls to `count` stay in proportion to the pieces, not to the paragraphs.
 */
export async function splitText(text: string, budget: number, count: CountTokens): Promise<Piece[]> {
  const whole = text.trim();
  const total = await count(whole);
  if (total <= budget) return [{ text: whole, separator: '' }];
  const perChar = (total / Math.max(1, whole.length)) * ESTIMATE_MARGIN;
  const sizer: Sizer = { budget, count, perChar };
  const units: Unit[] = [];
  for (const unit of await units_(whole, PARAGRAPH_BREAK, sizer)) {
    if (unit.tokens <= budget) {
      units.push(unit);
      continue;
    }
    // A paragraph longer than a piece: by sentences, and a sentence longer than a piece by length.
    for (const [i, s] of (await units_(unit.text, SENTENCE_END, sizer)).entries()) {
      const first = { ...s, separator: i === 0 ? unit.separator : s.separator };
      if (s.tokens <= budget) units.push(first);
      else units.push(...hardSplit(first, Math.ceil(s.tokens / budget)));
    }
  }
  const pieces: Piece[] = [];
  for (const group_ of group(units, budget)) pieces.push(...(await checked(group_, sizer)));
  return pieces;
}

/** Estimates run this much above the text's average density: a piece's exact count rarely exceeds it. */
const ESTIMATE_MARGIN = 1.15;

interface Sizer {
  budget: number;
  count: CountTokens;
  /** Estimated tokens per UTF-16 unit. */
  perChar: number;
}

const joined = (units: Unit[]): Piece => ({
  text: units.map((u, i) => (i === 0 ? u.text : u.separator + u.text)).join(''),
  separator: units[0]?.separator ?? '',
});

/** A group of estimated units, counted once; over the budget, halved and checked again. */
async function checked(units: Unit[], sizer: Sizer): Promise<Piece[]> {
  const piece = joined(units);
  if (units.length === 1 || units.every((u) => u.exact) || (await sizer.count(piece.text)) <= sizer.budget)
    return [piece];
  const half = Math.ceil(units.length / 2);
  return [...(await checked(units.slice(0, half), sizer)), ...(await checked(units.slice(half), sizer))];
}

interface Unit extends Piece {
  tokens: number;
  /** `tokens` was counted, not estimated. */
  exact: boolean;
}

async function units_(text: string, by: RegExp, { budget, count, perChar }: Sizer): Promise<Unit[]> {
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
    // Units well below the budget are estimated; a unit that may not fit is counted.
    const estimate = Math.ceil(body.length * perChar);
    if (estimate * 2 < budget) out.push({ text: body, separator, tokens: estimate, exact: false });
    else out.push({ text: body, separator, tokens: await count(body), exact: true });
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
      exact: false,
    });
  }
  return out;
}

/** Consecutive units gathered while their estimates fit. */
function group(units: Unit[], budget: number): Unit[][] {
  const groups: Unit[][] = [];
  let current: Unit[] = [];
  let tokens = 0;
  for (const u of units) {
    if (current.length > 0 && tokens + u.tokens > budget) {
      groups.push(current);
      current = [];
      tokens = 0;
    }
    current.push(u);
    tokens += u.tokens;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
