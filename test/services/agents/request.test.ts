import { describe, expect, it } from 'vitest';
import type { AgentBody } from '../../../src/api/agents.js';
import { translationRequest } from '../../../src/services/agents/request.js';

const body = (extra: Partial<AgentBody>): AgentBody => ({
  agent_id: 'general_translation',
  messages: [{ role: 'user', content: 'Hello' }],
  ...extra,
});

describe('translationRequest', () => {
  it('defaults: auto to zh-CN, general, no glossary', () => {
    const r = translationRequest(body({}), 1000);
    expect(r).toMatchObject({ text: 'Hello', sourceLang: 'auto', targetLang: 'zh-CN', reasonLang: 'to' });
    expect(r.glossary.entries).toEqual([]);
    expect(r.strategy.name).toBe('general');
    expect(r.suggestion).toBeUndefined();
  });

  it('translates the last user message, its text parts joined as paragraphs', () => {
    const r = translationRequest(
      body({
        messages: [
          { role: 'user', content: 'earlier' },
          { role: 'assistant', content: 'plus tôt' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'First part.' },
              { type: 'text', text: 'Second part.' },
            ],
          },
        ],
      }),
      1000,
    );
    expect(r.text).toBe('First part.\n\nSecond part.');
  });

  it('passes system messages and the general suggestion on as instructions', () => {
    const r = translationRequest(
      body({
        messages: [
          { role: 'system', content: 'Use a formal register.' },
          { role: 'user', content: 'Hi' },
        ],
        custom_variables: { strategy_config: { general: { suggestion: 'Keep product names in English.' } } },
      }),
      1000,
    );
    expect(r.suggestion).toBe('Use a formal register.\nKeep product names in English.');
  });

  it('normalises language codes and takes the strategy and cot settings', () => {
    const r = translationRequest(
      body({
        custom_variables: {
          source_lang: 'EN',
          target_lang: 'zh-hant',
          strategy: 'cot',
          strategy_config: { cot: { reason_lang: 'from' } },
        },
      }),
      1000,
    );
    expect(r).toMatchObject({ sourceLang: 'en', targetLang: 'zh-TW', reasonLang: 'from' });
    expect(r.strategy.name).toBe('cot');
  });

  it('refuses text over the configured length, naming the message', () => {
    expect(() => translationRequest(body({ messages: [{ role: 'user', content: 'x'.repeat(11) }] }), 10)).toThrow(
      /messages\[0\]\.content.*at most 10/,
    );
  });
});
