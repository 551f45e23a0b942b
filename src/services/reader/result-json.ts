import type { ReaderResult } from './types.js';

/**
 * A result as the reply's `reader_result` writes it (api/reader-reply.ts, serialized by Fastify with
 * fast-json-stringify), then UTF-8. The extraction thread runs it, so that a result of megabytes (a
 * 500-page PDF) costs the event loop a copy of bytes, not a serialization and two encodings.
 * Written out rather than compiled from the schema: the compiler (with ajv) adds ~20 MB to every
 * thread that loads it. test/server/reader-reply-bytes.test.ts holds the two to the same bytes.
 */
const encoder = new TextEncoder();

/** The key pattern of the schema's maps (TypeBox's Record of string keys): no line terminator. */
const MAP_KEY = /^(.*)$/;

function map<T>(object: Record<string, T>, value: (item: T) => string): string {
  let json = '{';
  for (const key of Object.keys(object)) {
    const item = object[key];
    if (item === undefined || !MAP_KEY.test(key)) continue;
    if (json.length > 1) json += ',';
    json += `${JSON.stringify(key)}:${value(item)}`;
  }
  return `${json}}`;
}

const string = (text: string): string => JSON.stringify(text);
const stylesheet = (sheet: { type: string }): string => `{"type":${JSON.stringify(sheet.type)}}`;

export function resultJson(result: ReaderResult): Uint8Array {
  let json =
    `{"content":${string(result.content)},"description":${string(result.description)},` +
    `"title":${string(result.title)},"url":${string(result.url)},` +
    `"external":{"stylesheet":${map(result.external.stylesheet, stylesheet)}},` +
    `"metadata":${map(result.metadata, string)}`;
  if (result.publishedTime !== undefined) json += `,"publishedTime":${string(result.publishedTime)}`;
  if (result.images !== undefined) json += `,"images":${map(result.images, string)}`;
  if (result.links !== undefined) json += `,"links":${map(result.links, string)}`;
  return encoder.encode(`${json}}`);
}
