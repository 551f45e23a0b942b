import type { ModelCaller } from '../model-caller.js';
import { constraints, linguist, ONLY_TRANSLATION, sourceBlock, system, translateMessages, user } from '../prompts.js';
import type { Out, Strategy, TranslationTask } from '../task.js';

/**
 * `two_step`: translate, then polish. Call 1 is the plain translation; call 2 post-edits it for
 * fluency against the source (the translate-then-post-edit pattern, as in Raunak et al. 2023,
 * "Leveraging GPT-4 for Automatic Translation Post-Editing").
 */
export const twoStep: Strategy = {
  name: 'two_step',
  calls: () => 2,
  async translate(task: TranslationTask, model: ModelCaller, out?: Out): Promise<string> {
    const draft = (await model.call(translateMessages(task))).text;
    const polished = await model.call(
      [
        system(linguist(task, 'translation editing')),
        user(
          `Polish this ${task.target} translation of the source text: make it read as fluent, natural ${task.target}, fix grammar, punctuation and word choice, and correct anything that departs from the source's meaning. Change nothing that is already right.${constraints(task)}\n\n${sourceBlock(task)}\n\n<TRANSLATION>\n${draft}\n</TRANSLATION>\n\n${ONLY_TRANSLATION}`,
        ),
      ],
      { onText: out },
    );
    return polished.text || draft;
  },
};
