import { afterAll, beforeAll, describe, it } from 'vitest';
import { RECENCY_FILTERS } from '../../src/api/web-search.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import {
  type Body,
  EXAMPLES,
  expectAccepted,
  expectRejected,
  type Json,
  repeat,
  withFields,
  withoutEngines,
} from './support.js';

const URL = EXAMPLES.webSearch.url;
const search = (changes: Record<string, Json | undefined>) => withFields(EXAMPLES.webSearch.body, changes);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(withoutEngines());
});
afterAll(() => t.close());

describe('web search: required fields (1213)', () => {
  it.each<[string, Body, string]>([
    ['search_engine', search({ search_engine: undefined }), 'search_engine'],
    ['search_query', search({ search_query: undefined }), 'search_query'],
  ])('%s', async (_label, body, field) => {
    expectRejected(await t.post(URL, body), 1213, field);
  });
});

describe('web search: invalid fields (1214)', () => {
  it.each<[string, Body, string]>([
    ['search_engine empty', search({ search_engine: '' }), 'search_engine'],
    ['search_query empty', search({ search_query: '' }), 'search_query'],
    ['search_query not a string', search({ search_query: { q: 'x' } }), 'search_query'],
    ['search_query too long', search({ search_query: repeat(4097) }), 'search_query'],
    ['count 0', search({ count: 0 }), 'count'],
    ['count 51', search({ count: 51 }), 'count'],
    ['count negative', search({ count: -1 }), 'count'],
    ['count not an integer', search({ count: 10.5 }), 'count'],
    ['count a word', search({ count: 'ten' }), 'count'],
    ['search_recency_filter not in the enum', search({ search_recency_filter: 'oneHour' }), 'search_recency_filter'],
    ['search_recency_filter wrong case', search({ search_recency_filter: 'oneday' }), 'search_recency_filter'],
    ['search_domain_filter not a string', search({ search_domain_filter: ['a.com'] }), 'search_domain_filter'],
    ['request_id 5 characters', search({ request_id: repeat(5) }), 'request_id'],
    ['request_id 65 characters', search({ request_id: repeat(65) }), 'request_id'],
    ['user_id 5 characters', search({ user_id: repeat(5) }), 'user_id'],
    ['user_id 129 characters', search({ user_id: repeat(129) }), 'user_id'],
  ])('%s', async (_label, body, field) => {
    expectRejected(await t.post(URL, body), 1214, field);
  });

  it('states the count range and the recency values', async () => {
    expectRejected(await t.post(URL, search({ count: 100 })), 1214, 'count: must be between 1 and 50');
    expectRejected(await t.post(URL, search({ search_recency_filter: 'x' })), 1214, RECENCY_FILTERS.join(', '));
  });
});

describe('web search: accepted', () => {
  it.each<[string, Body]>([
    ['the spec example', search({})],
    ['count 1', search({ count: 1 })],
    ['count 50', search({ count: 50 })],
    ['count as a string', search({ count: '25' })],
    ...RECENCY_FILTERS.map((r): [string, Body] => [`search_recency_filter ${r}`, search({ search_recency_filter: r })]),
    ['search_domain_filter', search({ search_domain_filter: 'example.com' })],
    ...['search_std', 'search_pro', 'search_pro_sogou', 'search_pro_quark', 'search_pro_jina'].map(
      (e): [string, Body] => [`live-platform engine name ${e}`, search({ search_engine: e })],
    ),
    [
      'request_id of 6 and user_id of 6 characters',
      search({ request_id: `ws${Date.now()}`.slice(0, 6), user_id: repeat(6) }),
    ],
    [
      'request_id of 64 and user_id of 128 characters',
      search({ request_id: `${Date.now()}`.padEnd(64, 's'), user_id: repeat(128) }),
    ],
    ['search_query of 4096 characters', search({ search_query: repeat(4096) })],
    ['null optional fields', search({ count: null, search_recency_filter: null, search_domain_filter: null })],
    ['extra fields', search({ content_size: 'high', location: 'us' })],
  ])('%s', async (_label, body) => {
    expectAccepted(await t.post(URL, body), EXAMPLES.webSearch.passCodes);
  });
});
