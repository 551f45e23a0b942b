import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { jsonBytesWriter, jsonWriter, RawJson } from '../../src/api/json-writer.js';
import { ReaderReply, ReaderResult, type ReaderResult as Result } from '../../src/api/reader-reply.js';
import { readerReplyBytes } from '../../src/server/reader-reply-bytes.js';
import { readPage } from '../../src/services/reader/read-page.js';

/** What Fastify writes for the reply when it serializes the whole object with the reply's schema. */
const schemaSerializer = fastJson(ReaderReply);
// As an extraction thread has the schema: a structured clone, without TypeBox's symbol keys.
const writeResult = jsonWriter<Result>(structuredClone(ReaderResult));
const resultJson = (result: Result): Uint8Array => new TextEncoder().encode(writeResult(result));

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

describe('the reader reply written from its schema (readerReplyBytes, jsonWriter)', () => {
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
          pdfMaxDecodedBytes: 64 * 1024 * 1024,
        });
        if (!reading.ok) throw new Error(reading.reason);
        expect(decoder.decode(resultJson(reading.result))).toBe(serialize(reading.result));
      }
  });
});

describe('jsonWriter', () => {
  const Sample = Type.Object(
    {
      name: Type.String(),
      count: Type.Integer(),
      ratio: Type.Number(),
      on: Type.Boolean(),
      kind: Type.Literal('sample'),
      note: Type.Optional(Type.String()),
      inner: Type.Object({ tags: Type.Record(Type.String(), Type.Integer()) }),
    },
    { additionalProperties: false },
  );

  it("writes what fast-json-stringify writes for the schema's every kind of field", () => {
    const value = { on: false, name: 'n "1"', count: 3, ratio: 0.25, kind: 'sample', inner: { tags: { a: 1, b: 2 } } };
    expect(jsonWriter(Sample)(value)).toBe(fastJson(Sample)(value));
    const noted = { ...value, note: 'x', extra: true };
    expect(jsonWriter(Sample)(noted)).toBe(fastJson(Sample)(noted));
  });

  it('refuses a value without a required field, as the serializer does', () => {
    expect(() => jsonWriter(Sample)({ name: 'n' })).toThrow('"count" is required!');
    expect(() => fastJson(Sample)({ name: 'n' })).toThrow('"count" is required!');
  });

  it('puts a RawJson value in as its bytes', () => {
    const raw = new RawJson(new TextEncoder().encode('{"tags":{"z":9}}'));
    const value = { name: 'n', count: 1, ratio: 1, on: true, kind: 'sample', inner: raw };
    expect(jsonBytesWriter(Sample)(value).toString()).toBe(
      '{"name":"n","count":1,"ratio":1,"on":true,"kind":"sample","inner":{"tags":{"z":9}}}',
    );
    expect(() => jsonWriter(Sample)(value)).toThrow('RawJson');
  });

  it('refuses, when built, a schema it cannot write as the serializer would', () => {
    expect(() => jsonWriter(Type.Object({ either: Type.Union([Type.String(), Type.Integer()]) }))).toThrow(
      '#.either has a schema it does not write',
    );
  });
});
