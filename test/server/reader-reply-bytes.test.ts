import { existsSync, readdirSync, readFileSync } from 'node:fs';
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { ReaderReply, ReaderResult } from '../../src/api/reader-reply.js';
import { readerReplyBytes } from '../../src/server/reader-reply-bytes.js';
import { readPage } from '../../src/services/reader/read-page.js';
import { resultJson } from '../../src/services/reader/result-json.js';
import type { ReaderResult as Result } from '../../src/services/reader/types.js';

/** What Fastify writes for the reply when it serializes the whole object with the reply's schema. */
const schemaSerializer = fastJson(ReaderReply);

const plain: Result = {
  content: '# Title\n\nText.',
  description: '',
  title: 'Title',
  url: 'https://example.com/',
  external: { stylesheet: {} },
  metadata: { keywords: '', viewport: '' },
};

const awkward: Result = {
  content: `Quotes " and \\ backslashes, tabs\t, controls \u0001\u001f, line separators \u2028\u2029, CJK 港口, RTL مرفأ, emoji 🚢, a lone surrogate \ud800 and ${'long '.repeat(5000)}`,
  description: 'Ünïcödé "description"',
  title: '</script><script>',
  url: 'https://example.com/a?b="c"&d=\u00e9',
  external: { stylesheet: { 'https://example.com/s.css': { type: 'text/css' } } },
  metadata: { 'og:title': '🚢 "Harbour"', '': 'empty name' },
  publishedTime: '2026-11-27T10:00:00Z',
  images: { 'Alt "1"': 'https://example.com/1.png' },
  // A key with a line terminator does not match the schema's key pattern (`^(.*)$`): both leave it out.
  links: { 'Link "text" 🚢': 'https://example.com/2', 'line\nbreak': 'https://example.com/3', '\u2028': 'x', 12: 'y' },
};

describe('readerReplyBytes', () => {
  for (const [name, result] of [
    ['a plain result', plain],
    ['a result with every optional field and awkward characters', awkward],
  ] as const) {
    it(`writes the schema serializer's bytes for ${name}`, () => {
      const identity = {
        id: '20261127100000abcdef0123456789ab',
        created: 1_795_000_000,
        requestId: 'client "id" \u2028 🚢',
      };
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
    });
  }

  it('leaves out fields the schema does not have, as the serializer does', () => {
    const extra = {
      ...plain,
      words: 12,
      external: { stylesheet: { 'https://example.com/s.css': { type: 'text/css', media: 'print' } } },
    } as Result;
    const text = new TextDecoder().decode(resultJson(extra));
    expect(text).toBe(fastJson(ReaderResult)(extra));
    expect(text).not.toContain('"words"');
    expect(text).not.toContain('print');
  });

  it('writes what the reader makes of real pages as the schema serializer does', async () => {
    const serialize = fastJson(ReaderResult);
    const decoder = new TextDecoder();
    // The reader's fixtures and the reader benchmark's labelled pages (news, blogs, docs, CJK, RTL).
    const fixtures = new URL('../services/reader/fixtures/', import.meta.url);
    const benchPages = new URL('../../bench/reader/data/', import.meta.url);
    const files = [
      ...readdirSync(fixtures)
        .filter((name) => name.endsWith('.html'))
        .map((name) => new URL(name, fixtures)),
      ...readdirSync(benchPages, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => new URL(`${entry.name}/source.html`, benchPages))
        .filter((file) => existsSync(file)),
    ];
    expect(files.length).toBeGreaterThan(50);
    for (const file of files)
      for (const request of [
        {},
        { return_format: 'text', with_links_summary: true, with_images_summary: true },
      ] as const) {
        const reading = await readPage({
          body: readFileSync(file),
          contentType: 'text/html',
          url: 'https://example.com/page',
          request: { url: 'https://example.com/page', ...request },
        });
        if (!reading.ok) throw new Error(reading.reason);
        expect(decoder.decode(resultJson(reading.result))).toBe(serialize(reading.result));
      }
  });
});
