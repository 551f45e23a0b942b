import type { ModelCaller } from '../model-caller.js';
import { constraints, linguist, sourceBlock, system, translateMessages, user } from '../prompts.js';
import type { Out, Strategy, TranslationTask } from '../task.js';

/**
 * `cot`: reason about the text, then translate (chain-of-thought prompting, Wei et al. 2022, as
 * applied to translation). `strategy_config.cot.reason_lang` picks the language of the reasoning:
 * the source's (`from`) or the target's (`to`, the default). On an engine that thinks, one call:
 * the reasoning is the model's thought, the answer the translation. Otherwise two: the reasoning
 * as a reply, then the translation with that reasoning in the prompt.
 */
export const cot: Strategy = {
  name: 'cot',
  calls: (thinking) => (thinking ? 1 : 2),
  async translate(task: TranslationTask, model: ModelCaller, out?: Out): Promise<string> {
    const reasonIn = task.reasonLang === 'from' ? task.source : task.target;
    const steps = `Think step by step, writing your reasoning in ${reasonIn}: what the text means, its difficult words, idioms and names and how to render them in ${task.target}, and the register to keep.`;
    if (model.thinking) {
      return (await model.call(translateMessages(task, ` ${steps}`), { thinking: true, onText: out })).text;
    }
    const reasoning = (
      await model.call([
        system(linguist(task)),
        user(
          `You will translate the text below from ${task.source} to ${task.target}. First, reason about it. ${steps}${constraints(task)}\n\n${sourceBlock(task)}\n\nOutput only your reasoning; do not write the translation yet.`,
        ),
      ])
    ).text;
    const extra = `\n\nYour reasoning about the text, to follow:\n<REASONING>\n${reasoning}\n</REASONING>`;
    return (await model.call(translateMessages(task, extra), { onText: out })).text;
  },
};
