import { unknownModel } from '../../errors/errors.js';
import { chatModel } from '../../models/catalogue.js';

export interface ModelMapConfig {
  models: readonly { match: string; model: string }[];
  default_model: string;
}

/** A `*` pattern as a whole-name, case-blind expression; every other character stands for itself. */
function patternOf(match: string): RegExp {
  const parts = match.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 'i');
}

/**
 * The model code behind a model name: a code is itself; a Claude name (or any other a coding tool
 * sends) resolves through the configured patterns, the first match winning, else the default.
 */
export class ModelMap {
  private readonly rules: { pattern: RegExp; model: string }[];

  constructor(private readonly config: ModelMapConfig) {
    this.rules = config.models.map((r) => ({ pattern: patternOf(r.match), model: r.model }));
  }

  resolve(name: string): string {
    if (chatModel(name)) return name;
    for (const rule of this.rules) if (rule.pattern.test(name)) return rule.model;
    if (this.config.default_model !== '') return this.config.default_model;
    throw unknownModel(`Model not found: ${name} (no entry of anthropic.models matches it)`, { field: 'model' });
  }
}
