import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Body, EXAMPLES, type Json, withoutEngines } from '../api/support.js';
import { expectErrorShape } from '../helpers/error-shapes.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Property: whatever body arrives at whatever operation, the answer is never a 500 and always the
 * error object of docs/wire.md, "Errors" (or, for a request that passes, a JSON object). Bodies start from
 * each operation's valid example and are mutated: fields dropped, duplicated, retyped, replaced by
 * random JSON, extreme numbers, unicode, huge strings, deep nesting, arrays for objects,
 * prototype-pollution keys, duplicate keys in the text, truncated text.
 *
 * The seed is fixed so that a run is repeatable; FUZZ_SEED=<n> explores another part of the space.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261121);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 300);
const BODY_LIMIT = 1024 * 1024;
const HUGE = 'x'.repeat(200_000);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(withoutEngines({ server: { body_limit: BODY_LIMIT } }));
});
afterAll(() => t?.close());

// ---- values -------------------------------------------------------------------------------------

const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];

const extremeNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    0.5,
    1e308,
    -1e308,
    5e-324,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    2 ** 31,
    2 ** 53,
    2 ** 64,
    131073,
    16385,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

const nastyString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\udfff\ud800',
    '\u202e\u2066',
    '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 👩‍👩‍👧‍👦',
    'ﷺ',
    HUGE,
    '1280x1280',
    '960x1728',
    `${'9'.repeat(400)}x1024`,
    '1024x1024x1024',
    'gen-4.6',
    'function',
    'file_url',
    'null',
    'true',
    '1e309',
    '{"a":1}',
    '../../etc/passwd',
    'http://127.0.0.1:9/',
    'javascript:alert(1)',
  ),
  fc.constantFrom(...PROTO_KEYS),
);

/** Nested arrays or objects; deeper nesting (up to 20k levels) is written into the text, see TextChange. */
const deepValue = fc
  .record({ depth: fc.integer({ min: 1, max: 1000 }), objects: fc.boolean(), leaf: fc.jsonValue({ maxDepth: 1 }) })
  .map(({ depth, objects, leaf }) => {
    let v: Json = leaf as Json;
    for (let i = 0; i < depth; i++) v = objects ? { a: v } : [v];
    return v;
  });

const anyValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json> },
  { weight: 2, arbitrary: extremeNumber },
  { weight: 3, arbitrary: nastyString },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: fc.constantFrom<Json>(null, true, false, [], {}, [[]], [{}], [null]) },
);

// ---- mutations ----------------------------------------------------------------------------------

type Path = (string | number)[];

/** Every path into the body, down to a depth where mutating further adds nothing (deep values stay cheap). */
function paths(value: Json, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (at.length >= 12 || value === null || typeof value !== 'object') return out;
  const entries: [string | number, Json][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [k, v] of entries) out.push(...paths(v, [...at, k]));
  return out;
}

type Container = Json[] | { [key: string]: Json };

function containerAt(root: Json, path: Path): Container | undefined {
  let cur: Json = root;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (Array.isArray(cur) ? cur[p as number] : cur[p as string]) as Json;
  }
  return cur !== null && typeof cur === 'object' ? cur : undefined;
}

/** A deep copy; a JSON round trip, which keeps `__proto__` keys as own properties and copes with deep nesting. */
const clone = <T extends Json>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Sets an own property even for `__proto__`, as JSON.parse would create it. */
function setOwn(obj: Container, key: string | number, value: Json): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

type Mutation =
  | { kind: 'delete' | 'wrapArray' | 'wrapObject' | 'stringify' | 'null' | 'duplicate'; pick: number; times: number }
  | { kind: 'replace'; pick: number; value: Json }
  | { kind: 'addKey'; pick: number; key: string; value: Json };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('delete', 'wrapArray', 'wrapObject', 'stringify', 'null', 'duplicate' as const),
    pick: fc.nat(),
    times: fc.oneof(fc.constant(2), fc.integer({ min: 3, max: 140 })),
  }),
  fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: anyValue }),
  fc.record({
    kind: fc.constant('addKey' as const),
    pick: fc.nat(),
    key: fc.oneof(
      fc.constantFrom(...PROTO_KEYS),
      fc.string({ maxLength: 12 }),
      fc.constantFrom('model', 'messages', 'type', 'role'),
    ),
    value: anyValue,
  }),
);

function applyMutation(root: Json, m: Mutation): Json {
  const all = paths(root);
  const path = all[m.pick % all.length]!;
  if (m.kind === 'addKey') {
    const target = containerAt(root, path);
    if (target && !Array.isArray(target)) setOwn(target, m.key, clone(m.value));
    else if (path.length === 0) return clone(m.value);
    return root;
  }
  if (path.length === 0) {
    // The whole body.
    switch (m.kind) {
      case 'replace':
        return clone(m.value);
      case 'wrapArray':
        return [root];
      case 'stringify':
        return JSON.stringify(root);
      case 'null':
        return null;
      default:
        return root;
    }
  }
  const parent = containerAt(root, path.slice(0, -1));
  if (!parent) return root;
  const key = path[path.length - 1]!;
  const current = (Array.isArray(parent) ? parent[key as number] : parent[key as string]) as Json;
  switch (m.kind) {
    case 'delete':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key as string];
      break;
    case 'replace':
      // Generated values are fast-check's, shared with shrinking: never mutate them in place.
      setOwn(parent, key, clone(m.value));
      break;
    case 'wrapArray':
      setOwn(parent, key, [current]);
      break;
    case 'wrapObject':
      setOwn(parent, key, { value: current });
      break;
    case 'stringify':
      setOwn(parent, key, typeof current === 'string' ? Number(current) : JSON.stringify(current));
      break;
    case 'null':
      setOwn(parent, key, null);
      break;
    case 'duplicate': {
      // Many copies of an array item (129 tools, 5 stop words, ...), capped to stay in the body limit.
      const size = JSON.stringify(current)?.length ?? 4;
      const times = Math.min(m.times, Math.max(2, Math.floor(BODY_LIMIT / 4 / Math.max(size, 1))));
      if (Array.isArray(parent))
        parent.splice(key as number, 0, ...Array.from({ length: times - 1 }, () => clone(current)));
      else
        setOwn(
          parent,
          key,
          Array.from({ length: times }, () => clone(current)),
        );
      break;
    }
  }
  return root;
}

/** Changes to the JSON text itself: duplicate keys, truncation, stray bytes, another text. */
type TextChange =
  | { kind: 'none' }
  | { kind: 'duplicateKey'; key: string; value: Json }
  | { kind: 'deepKey'; key: string; depth: number; open: '[' | '{"a":' }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'replaceAll'; text: string };

const textChange: fc.Arbitrary<TextChange> = fc.oneof(
  { weight: 12, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('duplicateKey' as const),
      key: fc.constantFrom(
        'model',
        'messages',
        'prompt',
        'url',
        'agent_id',
        'search_query',
        '__proto__',
        'constructor',
      ),
      value: anyValue,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deepKey' as const),
      key: fc.constantFrom(
        'model',
        'messages',
        'tools',
        'custom_variables',
        'prompt',
        'url',
        'count',
        'seed',
        'constructor',
      ),
      depth: fc.integer({ min: 1000, max: 20_000 }),
      open: fc.constantFrom('[' as const, '{"a":' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      text: fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom(',', '}', ']', '"', '\\', '\u0000', '\ufeff')),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('replaceAll' as const),
      text: fc.oneof(
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.constantFrom('', ' ', 'null', '[]', '{', '"x"', '1e999', '{"__proto__":{"x":1}}'),
      ),
    }),
  },
);

function applyText(text: string, change: TextChange): string {
  switch (change.kind) {
    case 'none':
      return text;
    case 'duplicateKey':
      return text.startsWith('{') && text.length > 2
        ? `{${JSON.stringify(change.key)}:${JSON.stringify(change.value)},${text.slice(1)}`
        : text;
    case 'deepKey': {
      // Written as text: no recursion on this side, the server parses and validates it.
      const close = change.open === '[' ? ']' : '}';
      const deep = change.open.repeat(change.depth) + '1' + close.repeat(change.depth);
      return text.startsWith('{') && text.length > 2 ? `{${JSON.stringify(change.key)}:${deep},${text.slice(1)}` : deep;
    }
    case 'truncate':
      return text.slice(0, change.at % (text.length + 1));
    case 'insert': {
      const at = change.at % (text.length + 1);
      return text.slice(0, at) + change.text + text.slice(at);
    }
    case 'replaceAll':
      return change.text;
  }
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=UTF-8',
  'text/plain',
  'application/x-www-form-urlencoded',
];

const request = fc.record({
  mutations: fc.array(mutation, { minLength: 0, maxLength: 4 }),
  text: textChange,
  contentType: fc.oneof(
    { weight: 10, arbitrary: fc.constant(CONTENT_TYPES[0]!) },
    { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  ),
});

// ---- the property -------------------------------------------------------------------------------

function checkAnswer(status: number, contentType: unknown, payload: string, what: () => string): void {
  const context = () => `${what()}\n→ ${status} ${payload.slice(0, 500)}`;
  expect(status, context()).not.toBe(500);
  expect(String(contentType), context()).toMatch(/^application\/json; charset=UTF-8$/);
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    throw new Error(`answer is not JSON: ${context()}`);
  }
  expect(body !== null && typeof body === 'object' && !Array.isArray(body), context()).toBe(true);
  if (status === 200) return;
  expectErrorShape(body as Record<string, unknown>, status, context());
}

describe('fuzz: mutated bodies never get a 500 or an unparsable answer', () => {
  it.each(Object.values(EXAMPLES).map((e) => [e.name, e.url, e.body] as const))('%s', async (_name, url, example) => {
    await fc.assert(
      fc.asyncProperty(request, async ({ mutations, text, contentType }) => {
        let body: Json = clone(example) as Body;
        for (const m of mutations) body = applyMutation(body, m);
        const payload = applyText(JSON.stringify(body) ?? '', text);
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': contentType, authorization: `Bearer ${t.key}` },
          payload,
        });
        checkAnswer(
          res.statusCode,
          res.headers['content-type'],
          res.payload,
          () => `${contentType} ${payload.slice(0, 500)}`,
        );
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('random JSON values as the whole body, on every operation', async () => {
    const urls = Object.values(EXAMPLES).map((e) => e.url);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...urls), anyValue, async (url, value) => {
        const payload = JSON.stringify(value) ?? 'null';
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
          payload,
        });
        checkAnswer(res.statusCode, res.headers['content-type'], res.payload, () => payload.slice(0, 500));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  // Fastify's router allows path parameters of up to 100 characters (maxParamLength).
  it('task ids of any text up to 100 characters on GET /paas/v4/async-result/{id}', async () => {
    const id = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 100 }),
      fc.constantFrom('__proto__', 'constructor', '..', '%', 'x'.repeat(100)),
    );
    await fc.assert(
      fc.asyncProperty(id, async (id) => {
        const encoded = encodeURIComponent(id);
        fc.pre(encoded.length <= 100);
        const res = await t.app.inject({
          method: 'GET',
          url: `/paas/v4/async-result/${encoded}`,
          headers: { authorization: `Bearer ${t.key}` },
        });
        checkAnswer(res.statusCode, res.headers['content-type'], res.payload, () => id);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  // Fastify's router refuses these itself; `frameworkErrors` in buildApp answers them as API errors.
  it.each([
    ['a task id over 100 characters', `/paas/v4/async-result/${'x'.repeat(101)}`],
    ['a malformed percent-encoding', '/paas/v4/async-result/%E0%A4%A'],
  ])('%s answers the API error object', async (_label, url) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.key}` } });
    checkAnswer(res.statusCode, res.headers['content-type'], res.payload, () => url);
  });
});
