import type { AgentBody } from '../../api/agents.js';
import { invalidField } from '../../errors/errors.js';
import { type Glossary, type GlossaryLimits, parseGlossary } from './glossary.js';
import { languageCode } from './languages.js';
import { STRATEGIES } from './strategies/index.js';
import type { Strategy } from './task.js';

/** A validated translation request, in the agent's terms. */
export interface TranslationRequest {
  text: string;
  /** A code of languages.ts, or `auto`. */
  sourceLang: string;
  targetLang: string;
  strategy: Strategy;
  glossaryText: string;
  glossary: Glossary;
  suggestion: string | undefined;
  reasonLang: 'from' | 'to';
}

const textOf = (content: AgentBody['messages'][number]['content']): string =>
  typeof content === 'string' ? content : content.map((p) => p.text).join('\n\n');

/**
 * The request's meaning, or a 1214 naming the field: the text is the last user message (a string,
 * or its text parts joined as paragraphs); system messages add instructions, like a suggestion.
 */
export function translationRequest(
  body: AgentBody,
  maxChars: number,
  glossaryLimits?: GlossaryLimits,
): TranslationRequest {
  const vars = body.custom_variables ?? {};
  const i = body.messages.findLastIndex((m) => m.role === 'user');
  const text = i < 0 ? '' : textOf(body.messages[i]!.content).trim();
  if (i < 0) throw invalidField('messages', 'must contain a user message with the text to translate');
  if (!text) throw invalidField(`messages[${i}].content`, 'must contain text to translate');
  if (text.length > maxChars)
    throw invalidField(`messages[${i}].content`, `must be at most ${maxChars} characters, got ${text.length}`);
  const source = vars.source_lang ?? 'auto';
  const sourceLang = source.toLowerCase() === 'auto' ? 'auto' : languageCode(source);
  if (!sourceLang)
    throw invalidField(
      'custom_variables.source_lang',
      `unknown language code ${JSON.stringify(source)}; see docs/agents.md for the list, or use auto`,
    );
  const target = vars.target_lang ?? 'zh-CN';
  const targetLang = languageCode(target);
  if (!targetLang)
    throw invalidField(
      'custom_variables.target_lang',
      `unknown language code ${JSON.stringify(target)}; see docs/agents.md for the list`,
    );
  const name = vars.strategy ?? 'general';
  const strategy = STRATEGIES[name];
  if (!strategy)
    throw invalidField('custom_variables.strategy', `must be one of ${Object.keys(STRATEGIES).join(', ')}`);
  const instructions = [
    ...body.messages.filter((m) => m.role === 'system').map((m) => textOf(m.content).trim()),
    vars.strategy_config?.general?.suggestion?.trim() ?? '',
  ].filter(Boolean);
  return {
    text,
    sourceLang,
    targetLang,
    strategy,
    glossaryText: vars.glossary ?? '',
    glossary: parseGlossary(vars.glossary, glossaryLimits),
    suggestion: instructions.length > 0 ? instructions.join('\n') : undefined,
    reasonLang: vars.strategy_config?.cot?.reason_lang ?? 'to',
  };
}
