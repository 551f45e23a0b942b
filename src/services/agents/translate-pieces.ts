import { type Glossary, type GlossaryEntry, glossaryLines, missingTerms } from './glossary.js';
import type { ModelCaller } from './model-caller.js';
import { ONLY_TRANSLATION, sourceBlock, system, user } from './prompts.js';
import { ReplyStream } from './reply-stream.js';
import type { Piece } from './split-text.js';
import type { Strategy, TranslationTask } from './task.js';

export type TaskBase = Omit<TranslationTask, 'text' | 'glossary' | 'previous'>;

/**
 * Translates the pieces in order, each with the one before as context, and sends the translation
 * to `emit` as it is made, each piece's preceded by the input's break before that piece. A piece
 * that no glossary entry applies to is streamed as its last call generates it; one with glossary
 * entries is sent whole once checked (and, when a target term is missing, after one repair call),
 * since a repaired translation replaces the text the model first wrote. `onPiece` runs after each
 * piece, while `model.lastFinish` is still that of the call the piece's text came from.
 */
export async function translatePieces(
  pieces: Piece[],
  strategy: Strategy,
  base: TaskBase,
  glossary: Glossary,
  model: ModelCaller,
  emit: (text: string) => void,
  options: { repair: boolean; onPiece?: () => void } = { repair: true },
): Promise<void> {
  const { repair } = options;
  let previous: TranslationTask['previous'];
  for (const [i, piece] of pieces.entries()) {
    const task: TranslationTask = { ...base, text: piece.text, glossary: glossary.entriesIn(piece.text), previous };
    let pending = i === 0 ? '' : piece.separator;
    const send = (text: string) => {
      emit(pending + text);
      pending = '';
    };
    let translation: string;
    if (repair && task.glossary.length > 0) {
      translation = await strategy.translate(task, model);
      const missing = missingTerms(task.glossary, translation);
      if (missing.length > 0) translation = await repairGlossary(task, translation, missing, model);
      if (translation) send(translation);
    } else {
      const stream = new ReplyStream(send);
      const whole = await strategy.translate(task, model, (delta) => stream.push(delta));
      translation = stream.end();
      // The last call said nothing and the strategy fell back on an earlier draft: send that.
      if (!translation && whole) {
        send(whole);
        translation = whole;
      }
    }
    previous = { source: piece.text, translation };
    options.onPiece?.();
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
