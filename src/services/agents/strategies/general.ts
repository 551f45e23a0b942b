import type { ModelCaller } from '../model-caller.js';
import { translateMessages } from '../prompts.js';
import type { Out, Strategy, TranslationTask } from '../task.js';

/**
 * `general`: one call. The translation-agent's initial-translation prompt; the client's
 * `strategy_config.general.suggestion` goes in as instructions to follow (see prompts.ts).
 */
export const general: Strategy = {
  name: 'general',
  calls: () => 1,
  async translate(task: TranslationTask, model: ModelCaller, out?: Out): Promise<string> {
    return (await model.call(translateMessages(task), { onText: out })).text;
  },
};
