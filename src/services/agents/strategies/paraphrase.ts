import type { ModelCaller } from '../model-caller.js';
import { translateMessages } from '../prompts.js';
import type { Out, Strategy, TranslationTask } from '../task.js';

/**
 * `paraphrase`: one call asking for a free (sense-for-sense) translation that a native writer
 * would produce, rather than a literal one: the "paraphrase" style of prompt in the
 * prompting-for-MT literature (e.g. Gao et al. 2023, "How to design translation prompts for ChatGPT").
 */
export const paraphrase: Strategy = {
  name: 'paraphrase',
  calls: () => 1,
  async translate(task: TranslationTask, model: ModelCaller, out?: Out): Promise<string> {
    const extra = ` Translate freely, sense for sense rather than word for word: restructure sentences and choose idioms as a native ${task.target} writer would, while keeping every piece of meaning, the tone and the register of the source.`;
    return (await model.call(translateMessages(task, extra), { onText: out })).text;
  },
};
