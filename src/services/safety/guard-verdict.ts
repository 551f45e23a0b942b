import type { SafetyLevel } from './types.js';

export interface GuardVerdict {
  level: SafetyLevel;
  verdict: 'safe' | 'unsafe' | 'controversial';
  categories: string[];
}

/**
 * Reads a guard model's answer:
 * - Llama Guard 3/4: `safe`, or `unsafe` with the categories on the next line (`S1,S10`);
 * - Qwen3Guard: `Safety: Safe|Unsafe|Controversial` and `Categories: Violent, ...`.
 * Anything else is undefined: an answer we cannot read is a guard failure, never "safe".
 */
export function parseGuardVerdict(text: string): GuardVerdict | undefined {
  const clean = text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  const qwen = /safety\s*:\s*(safe|unsafe|controversial)/i.exec(clean);
  if (qwen) {
    const word = qwen[1]!.toLowerCase() as GuardVerdict['verdict'];
    const cats = /categories\s*:\s*([^\n]*)/i.exec(clean)?.[1] ?? '';
    return verdict(
      word,
      cats
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c && c.toLowerCase() !== 'none'),
    );
  }
  const [first, second] = clean.split(/\r?\n/).map((l) => l.trim());
  const word = first?.toLowerCase();
  if (word === 'safe' || word === 'unsafe') {
    return verdict(
      word,
      word === 'unsafe'
        ? (second ?? '')
            .split(',')
            .map((c) => c.trim())
            .filter(Boolean)
        : [],
    );
  }
  return undefined;
}

function verdict(word: GuardVerdict['verdict'], categories: string[]): GuardVerdict {
  const level: SafetyLevel = word === 'unsafe' ? 0 : word === 'controversial' ? 1 : 3;
  return { level, verdict: word, categories };
}
