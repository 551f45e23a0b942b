/**
 * Token-overlap precision, recall and F1 of an extracted text against ground truth, as the public
 * article-extraction benchmarks compute it: bags of lower-cased word tokens, matched with
 * multiplicity.
 */
export interface Score {
  precision: number;
  recall: number;
  f1: number;
}

export const tokens = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

export function tokenF1(extracted: string, truth: string): Score {
  const expected = new Map<string, number>();
  for (const token of tokens(truth)) expected.set(token, (expected.get(token) ?? 0) + 1);
  const got = tokens(extracted);
  const truthCount = [...expected.values()].reduce((a, b) => a + b, 0);
  if (got.length === 0 || truthCount === 0) {
    const same = got.length === truthCount;
    return { precision: same ? 1 : 0, recall: same ? 1 : 0, f1: same ? 1 : 0 };
  }
  let matched = 0;
  for (const token of got) {
    const left = expected.get(token) ?? 0;
    if (left > 0) {
      matched++;
      expected.set(token, left - 1);
    }
  }
  const precision = matched / got.length;
  const recall = matched / truthCount;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
