import type { ModelCaller } from '../model-caller.js';
import {
  constraints,
  linguist,
  ONLY_TRANSLATION,
  QUALITY_AXES,
  sourceBlock,
  system,
  translateMessages,
  user,
} from '../prompts.js';
import type { Out, Strategy, TranslationTask } from '../task.js';

/**
 * `reflection`: translate, critique, improve: Andrew Ng's translation-agent workflow
 * (github.com/andrewyng/translation-agent, `one_chunk_*` prompts). Call 1 translates; call 2 asks
 * for specific suggestions on accuracy, fluency, style and terminology; call 3 edits the draft
 * with them.
 */
export const reflection: Strategy = {
  name: 'reflection',
  calls: () => 3,
  async translate(task: TranslationTask, model: ModelCaller, out?: Out): Promise<string> {
    const draft = (await model.call(translateMessages(task))).text;
    const translation = `<TRANSLATION>\n${draft}\n</TRANSLATION>`;
    const critique = (
      await model.call([
        system(
          `${linguist(task)} You will be provided with a source text and its translation and your goal is to improve the translation.`,
        ),
        user(
          `Your task is to carefully read a source text and a translation from ${task.source} to ${task.target}, and then give constructive criticism and helpful suggestions to improve the translation.${constraints(task)}\n\n${sourceBlock(task)}\n\n${translation}\n\nWhen writing suggestions, pay attention to whether there are ways to improve the translation's ${QUALITY_AXES(task.target)}.\n\nWrite a list of specific, helpful and constructive suggestions for improving the translation. Each suggestion should address one specific part of the translation. Output only the suggestions and nothing else.`,
        ),
      ])
    ).text;
    const improved = await model.call(
      [
        system(linguist(task, 'translation editing')),
        user(
          `Your task is to carefully read, then edit, a translation from ${task.source} to ${task.target}, taking into account a list of expert suggestions and constructive criticisms.${constraints(task)}\n\n${sourceBlock(task)}\n\n${translation}\n\n<EXPERT_SUGGESTIONS>\n${critique}\n</EXPERT_SUGGESTIONS>\n\nPlease take into account the expert suggestions when editing the translation. Edit the translation by ensuring ${QUALITY_AXES(task.target)}, (v) no other errors.\n\n${ONLY_TRANSLATION}`,
        ),
      ],
      { onText: out },
    );
    return improved.text || draft;
  },
};
