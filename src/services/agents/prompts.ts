import type { ChatMessage } from '../../engines/chat/types.js';
import { glossaryLines } from './glossary.js';
import type { TranslationTask } from './task.js';

/**
 * Prompt pieces shared by the strategies. The wording follows Andrew Ng's translation-agent
 * (github.com/andrewyng/translation-agent): a linguist persona in the system prompt, the texts
 * delimited by XML tags, and "output only the translation" at the end.
 */

export const system = (content: string): ChatMessage => ({ role: 'system', content });
export const user = (content: string): ChatMessage => ({ role: 'user', content });

export const linguist = (t: TranslationTask, role = 'translation'): string =>
  `You are an expert linguist, specializing in ${role} from ${t.source} to ${t.target}.`;

/** Glossary, context and the client's suggestion: the same block in every prompt that writes a translation. */
export function constraints(t: TranslationTask): string {
  const parts: string[] = [];
  if (t.glossary.length > 0) {
    parts.push(
      `Use this glossary: wherever a source term occurs, translate it exactly as given.\n<GLOSSARY>\n${glossaryLines(t.glossary)}\n</GLOSSARY>`,
    );
  }
  if (t.previous) {
    parts.push(
      `For context, this is the passage just before the text and its translation; do not translate it again, only keep terminology and style consistent with it.\n<PREVIOUS_SOURCE>\n${t.previous.source}\n</PREVIOUS_SOURCE>\n<PREVIOUS_TRANSLATION>\n${t.previous.translation}\n</PREVIOUS_TRANSLATION>`,
    );
  }
  if (t.suggestion) parts.push(`Follow these instructions from the client:\n${t.suggestion}`);
  return parts.length > 0 ? `\n\n${parts.join('\n\n')}` : '';
}

export const sourceBlock = (t: TranslationTask): string => `<SOURCE_TEXT>\n${t.text}\n</SOURCE_TEXT>`;

export const ONLY_TRANSLATION =
  'Keep the paragraph breaks of the source. Output only the translation and nothing else: no explanations, no notes, no tags.';

/** The four axes of the translation-agent's reflection prompt, reused by the refining steps. */
export const QUALITY_AXES = (target: string): string =>
  `(i) accuracy (by correcting errors of addition, mistranslation, omission, or untranslated text), (ii) fluency (by applying ${target} grammar, spelling and punctuation rules, and ensuring there are no unnecessary repetitions), (iii) style (by ensuring the translation reflects the style of the source text and takes into account any cultural context), (iv) terminology (by ensuring terminology use is consistent and reflects the source text domain, and by only using equivalent idioms in ${target})`;

/** The plain translation request: the first call of most strategies. */
export function translateMessages(t: TranslationTask, extra = ''): ChatMessage[] {
  return [
    system(linguist(t)),
    user(
      `This is a ${t.source} to ${t.target} translation. Please provide the ${t.target} translation of the text between the SOURCE_TEXT tags.${extra}${constraints(t)}\n\n${sourceBlock(t)}\n\n${ONLY_TRANSLATION}`,
    ),
  ];
}
