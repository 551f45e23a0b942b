import type { Strategy } from '../task.js';
import { cot } from './cot.js';
import { general } from './general.js';
import { paraphrase } from './paraphrase.js';
import { reflection } from './reflection.js';
import { threeStep } from './three-step.js';
import { twoStep } from './two-step.js';

/** `custom_variables.strategy` → its strategy (docs/wire.md, "Agents" lists the names). */
export const STRATEGIES: Readonly<Record<string, Strategy>> = {
  general,
  paraphrase,
  two_step: twoStep,
  three_step: threeStep,
  reflection,
  cot,
};
