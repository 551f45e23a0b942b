import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { ReaderReply } from '../../src/api/reader-reply.js';
import { readerReplyBytes } from '../../src/server/reader-reply-bytes.js';
import { resultJson } from '../../src/services/reader/result-json.js';
import type { ReaderResult } from '../../src/services/reader/types.js';

/** What Fastify writes for the reply when it serializes the whole object with the reply's schema. */
const schemaSerializer = fastJson(ReaderReply);

const plain: ReaderResult = {
  content: '# Title\n\nText.',
  description: '',
  title: 'Title',
  url: 'https://example.com/',
  external: { stylesheet: {} },
  metadata: { keywords: '', viewport: '' },
};

const awkward: ReaderResult = {
  content: `Quotes " and \\ backslashes, tabs\t, controls \u0001\u001f, line separators \u2028\u2029, CJK 港口, RTL مرفأ, emoji 🚢, a lone surrogate \ud800 and ${'long '.repeat(5000)}`,
  description: 'Ünïcödé "description"',
  title: '</script><script>',
  url: 'https://example.com/a?b="c"&d=\u00e9',
  external: { stylesheet: { 'https://example.com/s.css': { type: 'text/css' } } },
  metadata: { 'og:title': '🚢 "Harbour"', '': 'empty name' },
  publishedTime: '2026-11-27T10:00:00Z',
  images: { 'Alt "1"': 'https://example.com/1.png' },
  // Keys never hold a line break (the summaries collapse whitespace): the schema's key pattern is `^(.*)$`.
  links: { 'Link "text" 🚢': 'https://example.com/2' },
};

describe('readerReplyBytes', () => {
  for (const [name, result] of [
    ['a plain result', plain],
    ['a result with every optional field and awkward characters', awkward],
  ] as const) {
    it(`writes the schema serializer's bytes for ${name}`, () => {
      const identity = { id: '20261127100000abcdef0123456789ab', created: 1_795_000_000, requestId: 'client "id" \u2028 🚢' };
      const bytes = readerReplyBytes(identity, resultJson(result));
      const expected = schemaSerializer({
        id: identity.id,
        created: identity.created,
        request_id: identity.requestId,
        model: 'reader',
        reader_result: result,
      });
      expect(bytes.toString('utf8')).toBe(expected);
      expect(bytes.equals(Buffer.from(expected))).toBe(true);
      expect(JSON.parse(bytes.toString('utf8')).reader_result).toEqual(JSON.parse(JSON.stringify(result)));
    });
  }

  it('leaves out fields the schema does not have, as the serializer does', () => {
    const extra = { ...plain, words: 12 } as ReaderResult;
    expect(JSON.parse(new TextDecoder().decode(resultJson(extra)))).not.toHaveProperty('words');
  });
});
