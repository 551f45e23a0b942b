import type { GlossaryEntry } from './glossary.js';
import type { ModelCaller } from './model-caller.js';

/** One piece of text to translate, with everything the prompts need. */
export interface TranslationTask {
  /** The piece, exactly as the client sent it. */
  text: string;
  /** Language names as prompts use them, e.g. `English`. */
  source: string;
  target: string;
  /** Glossary entries whose source term occurs in this piece. */
  glossary: GlossaryEntry[];
  /** The piece before this one and its translation, as context (long input). */
  previous: { source: string; translation: string } | undefined;
  /** `strategy_config.general.suggestion`, and any system message of the request. */
  suggestion: string | undefined;
  /** `strategy_config.cot.reason_lang`: reason in the source (`from`) or target (`to`) language. */
  reasonLang: 'from' | 'to';
}

export type Out = ((delta: string) => void) | undefined;

/** A translation strategy: a fixed, documented sequence of model calls that yields the translation. */
export interface Strategy {
  readonly name: string;
  /** Model calls one piece costs (before any glossary repair), on an engine with or without thinking. */
  calls(thinking: boolean): number;
  /**
   * The translation. `out`, when given, receives the text of the call whose reply IS the
   * translation (the last one), as it is generated.
   */
  translate(task: TranslationTask, model: ModelCaller, out?: Out): Promise<string>;
}
