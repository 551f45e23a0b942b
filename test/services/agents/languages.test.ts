import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../../../src/services/agents/detect-language.js';
import { LANGUAGES, languageCode } from '../../../src/services/agents/languages.js';

describe('language codes', () => {
  it("covers the live platform's target codes", () => {
    for (const code of 'zh-CN zh-TW en ja ko fr de es ru pt it ar th vi id ms tr nl pl'.split(' ')) {
      // A language's name in English, as the prompt says it, and the code as its own canonical form.
      expect(LANGUAGES[code], code).toMatch(/^[A-Z][a-z]+( [A-Z][a-z]+)?$/);
      expect(languageCode(code)).toBe(code);
    }
  });

  it('matches case-insensitively, with aliases', () => {
    expect(languageCode('ZH-cn')).toBe('zh-CN');
    expect(languageCode('zh')).toBe('zh-CN');
    expect(languageCode('zh-Hant')).toBe('zh-TW');
    expect(languageCode('EN')).toBe('en');
    expect(languageCode('xx')).toBeUndefined();
  });
});

describe('detectLanguage', () => {
  it.each([
    ['The weather is lovely today and we are going for a walk.', 'en'],
    ["Il fait très beau aujourd'hui, allons nous promener au port.", 'fr'],
    ['Das Wetter ist heute herrlich, lass uns zum Hafen gehen.', 'de'],
    ['Сегодня прекрасная погода, давайте прогуляемся к гавани.', 'ru'],
    ['今天天气很好，我们一起去港口散步吧。', 'zh-CN'],
    ['今天天氣很好，我們一起去港口散步吧。', 'zh-TW'],
    ['今日はとても良い天気なので、港まで散歩しましょう。', 'ja'],
    ['오늘 날씨가 정말 좋네요. 항구까지 걸어가요.', 'ko'],
    ['الطقس جميل اليوم، دعنا نمشي إلى الميناء.', 'ar'],
  ])('%s → %s', async (text, code) => {
    expect(await detectLanguage(text)).toBe(code);
  });

  it('finds nothing in digits alone', async () => {
    expect(await detectLanguage('12345 678')).toBeUndefined();
  });
});
