import { describe, expect, it } from 'vitest';
import { entriesIn, missingTerms, parseGlossary } from '../../../src/services/agents/glossary.js';

describe('glossary', () => {
  it('parses one entry a line, skipping blanks and # comments', () => {
    expect(parseGlossary('cat => chat\n\n# animals\n  dog=>chien  \r\nlarge language model => 大语言模型')).toEqual([
      { source: 'cat', target: 'chat' },
      { source: 'dog', target: 'chien' },
      { source: 'large language model', target: '大语言模型' },
    ]);
    expect(parseGlossary(undefined)).toEqual([]);
  });

  it.each(['cat', 'cat =>', '=> chat', 'cat -> chat'])('refuses %j, naming the field and line', (line) => {
    expect(() => parseGlossary(`a => b\n${line}`)).toThrow(/custom_variables\.glossary.*line 2/);
  });

  it('applies the entries whose source occurs, case-insensitively', () => {
    const g = parseGlossary('Weather => météo\nport => harbour');
    expect(entriesIn(g, 'The weather is fine.')).toEqual([{ source: 'Weather', target: 'météo' }]);
  });

  it('finds the target terms missing from a translation', () => {
    const g = parseGlossary('weather => météo\nwalk => promenade');
    expect(missingTerms(g, 'The weather; a walk.', 'La Météo est belle.')).toEqual([
      { source: 'walk', target: 'promenade' },
    ]);
    expect(missingTerms(g, 'The weather; a walk.', 'météo, promenade')).toEqual([]);
  });
});
