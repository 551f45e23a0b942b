import { afterAll, beforeAll, describe, it } from 'vitest';
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

const URL = EXAMPLES.reader.url;
const read = (changes: Record<string, Json | undefined>) => withFields(EXAMPLES.reader.body, changes);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(withoutEngines());
});
afterAll(() => t.close());

describe('reader: required fields (1213)', () => {
  it('url', async () => {
    expectRejected(await t.post(URL, read({ url: undefined })), 1213, 'url');
  });

  it('url given as null means absent', async () => {
    expectRejected(await t.post(URL, read({ url: null })), 1213, 'url');
  });
});

describe('reader: invalid fields (1214)', () => {
  it.each<[string, Body, string]>([
    ['url empty', read({ url: '' }), 'url'],
    ['url not a string', read({ url: ['https://example.com'] }), 'url'],
    ['url too long', read({ url: `https://example.com/${repeat(8200)}` }), 'url'],
    ['timeout 0', read({ timeout: 0 }), 'timeout'],
    ['timeout negative', read({ timeout: -5 }), 'timeout'],
    ['timeout above the maximum', read({ timeout: 121 }), 'timeout'],
    ['timeout not an integer', read({ timeout: 2.5 }), 'timeout'],
    ['timeout a word', read({ timeout: 'soon' }), 'timeout'],
    ['return_format not in the enum', read({ return_format: 'pdf' }), 'return_format'],
    ['return_format wrong case', read({ return_format: 'Markdown' }), 'return_format'],
    ['no_cache not a boolean', read({ no_cache: 'yes' }), 'no_cache'],
    ['retain_images not a boolean', read({ retain_images: {} }), 'retain_images'],
    ['no_gfm not a boolean', read({ no_gfm: 'no' }), 'no_gfm'],
    ['keep_img_data_url not a boolean', read({ keep_img_data_url: [] }), 'keep_img_data_url'],
    ['with_images_summary not a boolean', read({ with_images_summary: 'x' }), 'with_images_summary'],
    ['with_links_summary not a boolean', read({ with_links_summary: 'x' }), 'with_links_summary'],
    ['request_id 5 characters', read({ request_id: repeat(5) }), 'request_id'],
    ['request_id 65 characters', read({ request_id: repeat(65) }), 'request_id'],
    ['user_id 5 characters', read({ user_id: repeat(5) }), 'user_id'],
    ['user_id 129 characters', read({ user_id: repeat(129) }), 'user_id'],
  ])('%s', async (_label, body, field) => {
    expectRejected(await t.post(URL, body), 1214, field);
  });

  it('states the allowed formats', async () => {
    expectRejected(await t.post(URL, read({ return_format: 'pdf' })), 1214, 'markdown, text, html');
  });
});

describe('reader: accepted', () => {
  it.each<[string, Body]>([
    ['only url', read({})],
    ['timeout 1', read({ timeout: 1 })],
    ['timeout 20', read({ timeout: 20 })],
    ['timeout 120', read({ timeout: 120 })],
    ['timeout as a string (Python SDK)', read({ timeout: '20' })],
    ...['markdown', 'text', 'html'].map((f): [string, Body] => [`return_format ${f}`, read({ return_format: f })]),
    [
      'every flag',
      read({
        no_cache: true,
        retain_images: false,
        no_gfm: true,
        keep_img_data_url: true,
        with_images_summary: true,
        with_links_summary: true,
      }),
    ],
    [
      'request_id of 6 and user_id of 6 characters',
      read({ request_id: `rd${Date.now()}`.slice(0, 6), user_id: repeat(6) }),
    ],
    [
      'request_id of 64 and user_id of 128 characters',
      read({ request_id: `${Date.now()}`.padEnd(64, 'r'), user_id: repeat(128) }),
    ],
    ['null optional fields', read({ timeout: null, return_format: null, no_cache: null })],
    ['extra fields', read({ seed: 1, extra: {} })],
  ])('%s', async (_label, body) => {
    expectAccepted(await t.post(URL, body), EXAMPLES.reader.passCodes);
  });
});
