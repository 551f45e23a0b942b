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
 * `three_step`: analyse, translate, refine. Call 1 mines the knowledge a human translator gathers
 * first (keywords with their translations, topic, style), as in MAPS (He et al. 2023, "Exploring
 * Human-Like Translation Strategy with Large Language Models"); call 2 translates with that
 * analysis; call 3 refines the draft against the source and the analysis.
 */
export const threeStep: Strategy = {
  name: 'three_step',
  calls: () => 3,
  async translate(task: TranslationTask, model: ModelCaller, out?: Out): Promise<string> {
    const analysis = (
      await model.call([
        system(linguist(task)),
        user(
          `Before translating the text below from ${task.source} to ${task.target}, analyse it:\n1. Keywords: list its key terms and names, each with its ${task.target} translation.\n2. Topic: describe its topic and domain in one sentence.\n3. Style: describe its register, tone and audience in one sentence.\n\n${sourceBlock(task)}\n\nOutput only the analysis.`,
        ),
      ])
    ).text;
    const extra = `\n\nUse this analysis of the text:\n<ANALYSIS>\n${analysis}\n</ANALYSIS>`;
    const draft = (await model.call(translateMessages(task, extra))).text;
    const refined = await model.call(
      [
        system(linguist(task, 'translation editing')),
        user(
          `Refine this ${task.target} translation against the source text and its analysis. Improve ${QUALITY_AXES(task.target)}.${constraints(task)}\n\n${sourceBlock(task)}\n\n<ANALYSIS>\n${analysis}\n</ANALYSIS>\n\n<TRANSLATION>\n${draft}\n</TRANSLATION>\n\n${ONLY_TRANSLATION}`,
        ),
      ],
      { onText: out },
    );
    return refined.text || draft;
  },
};
