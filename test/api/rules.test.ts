import { describe, expect, it } from 'vitest';
import { checkImageSize, checkMaxTokens, checkMessageList } from '../../src/api/rules.js';
import { ApiError } from '../../src/errors/api-error.js';
import { CHAT_MODELS, OTHER_IMAGE_FAMILY, TOKENIZER_MODELS } from '../../src/models/catalogue.js';

function refusal(fn: () => void): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('image size rules per model family', () => {
  // gen-image's sides are at most 2048, so 2^22 pixels can only be reached, never passed: the
  // pixel rule bites for the other family (2^21), whose rules apply to any non-gen-image code.
  it('other family: 512-2048 px, divisible by 16, at most 2^21 pixels', () => {
    expect(() => checkImageSize('other-image', '512x512')).not.toThrow();
    expect(() => checkImageSize('other-image', '1440x1440')).not.toThrow();
    for (const size of OTHER_IMAGE_FAMILY.recommendedSizes)
      expect(() => checkImageSize('other-image', size)).not.toThrow();
    expect(refusal(() => checkImageSize('other-image', '496x512')).message).toMatch(
      /^Invalid size: .*from 512 to 2048/,
    );
    expect(refusal(() => checkImageSize('other-image', '520x512')).message).toContain('divisible by 16');
    const tooMany = refusal(() => checkImageSize('other-image', '2048x1040'));
    expect(tooMany.code).toBe(1214);
    expect(tooMany.message).toContain(String(2 ** 21));
  });

  it('gen-image: at most 2^22 pixels holds at the largest sides', () => {
    expect(() => checkImageSize('gen-image', '2048x2048')).not.toThrow();
    expect(refusal(() => checkImageSize('gen-image', '2048x2080')).code).toBe(1214);
  });
});

describe('max_tokens ceilings of the spec (Limits)', () => {
  const K = 1024;
  it.each([
    ['gen-5.2', 128 * K],
    ['gen-5.1', 128 * K],
    ['gen-5', 128 * K],
    ['gen-4.7', 128 * K],
    ['gen-4.6', 128 * K],
    ['gen-4.5', 96 * K],
    ['gen-4.5-flash', 96 * K],
    ['gen-4.6v', 32 * K],
    ['gen-4-32b-0414-128k', 16 * K],
  ])('%s allows %i', (model, ceiling) => {
    expect([...CHAT_MODELS, ...TOKENIZER_MODELS].some((m) => m.code === model)).toBe(true);
    expect(() => checkMaxTokens(model, ceiling)).not.toThrow();
    const err = refusal(() => checkMaxTokens(model, ceiling + 1));
    expect(err.code).toBe(1214);
    expect(err.message).toBe(`Invalid max_tokens: must be at most ${ceiling} for ${model}`);
  });
});

describe('message list rules', () => {
  it('names the assistant message that has neither content nor tool_calls', () => {
    const err = refusal(() =>
      checkMessageList(
        [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
          { role: 'assistant', tool_calls: [] },
        ],
        { assistantNeedsContent: true },
      ),
    );
    expect(err.message).toBe('Invalid messages[2]: an assistant message needs content or tool_calls');
  });
});
