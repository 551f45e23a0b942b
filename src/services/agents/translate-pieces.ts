import { entriesIn, type GlossaryEntry, glossaryLines, missingTerms } from './glossary.js';
import type { ModelCaller } from './model-caller.js';
import { ONLY_TRANSLATION, sourceBlock, system, user } from './prompts.js';
import type { Piece } from './split-text.js';
import type { Strategy, TranslationTask } from './task.js';

export type TaskBase = Omit<TranslationTask, 'text' | 'glossary' | 'previous'>;

/**
 * Translates the pieces in order, each with the one before as context, and yields each piece's
 * translation (preceded by the input's break before that piece) as soon as it is final: after the
 * strategy's calls and, when a glossary term is missing, one repair call.
 */
export async function* translatePieces(
  pieces: Piece[],
  strategy: Strategy,
  base: TaskBase,
  glossary: GlossaryEntry[],
  model: ModelCaller,
  repair = true,
): AsyncGenerator<string> {
  let previous: TranslationTask['previous'];
  for (const [i, piece] of pieces.entries()) {
    const task: TranslationTask = { ...base, text: piece.text, glossary: entriesIn(glossary, piece.text), previous };
    let translation = await strategy.translate(task, model);
    const missing = missingTerms(glossary, piece.text, translation);
    if (repair && missing.length > 0) translation = await repairGlossary(task, translation, missing, model);
    yield i === 0 ? translation : piece.separator + translation;
    previous = { source: piece.text, translation };
  }
}

/** One call, whatever it returns: the check is not repeated, so a piece never costs more than one repair. */
async function repairGlossary(
  task: TranslationTask,
  translation: string,
  missing: GlossaryEntry[],
  model: ModelCaller,
): Promise<string> {
  const reply = await model.call([
    system(`You are an expert linguist, specializing in translation editing from ${task.source} to ${task.target}.`),
    user(
      `The ${task.target} translation below does not use the required glossary terms. Rewrite it so that each source term listed is translated exactly as the glossary says; change nothing else.\n<GLOSSARY>\n${glossaryLines(missing)}\n</GLOSSARY>\n\n${sourceBlock(task)}\n\n<TRANSLATION>\n${translation}\n</TRANSLATION>\n\n${ONLY_TRANSLATION}`,
    ),
  ]);
  return reply.text || translation;
}
