import { afterAll, beforeAll, describe, it } from 'vitest';
import { IMAGE_MODELS } from '../../src/models/catalogue.js';
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

const SYNC = EXAMPLES.images.url;
const ASYNC = EXAMPLES.asyncImages.url;
const img = (changes: Record<string, Json | undefined>) => withFields(EXAMPLES.images.body, changes);
const RECOMMENDED = IMAGE_MODELS.find((m) => m.code === 'gen-image')!.recommendedSizes;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(withoutEngines());
});
afterAll(() => t.close());

describe.each([
  ['images (sync)', SYNC],
  ['images (async)', ASYNC],
])('%s', (_name, url) => {
  it.each<[string, Body, string]>([
    ['model', img({ model: undefined }), 'model'],
    ['prompt', img({ prompt: undefined }), 'prompt'],
  ])('required: %s (1213)', async (_label, body, field) => {
    expectRejected(await t.post(url, body), 1213, field);
  });

  it.each<[string, Json]>([
    ['a chat model', 'gen-4.6'],
    ['another vendor', 'dall-e-3'],
  ])('unknown model: %s (1211)', async (_label, model) => {
    expectRejected(await t.post(url, img({ model })), 1211, 'model');
  });

  it.each<[string, Body, string]>([
    ['prompt empty', img({ prompt: '' }), 'prompt'],
    ['prompt not a string', img({ prompt: { text: 'cat' } }), 'prompt'],
    ['quality unknown', img({ quality: 'ultra' }), 'quality'],
    ['size without x', img({ size: '1280*1280' }), 'size'],
    ['size with spaces', img({ size: '1280 x 1280' }), 'size'],
    ['size with a unit', img({ size: '1280pxx1280px' }), 'size'],
    ['size negative', img({ size: '-1280x1280' }), 'size'],
    ['size one side only', img({ size: '1280' }), 'size'],
    ['size width below 1024', img({ size: '992x1280' }), 'size'],
    ['size height below 1024', img({ size: '1280x992' }), 'size'],
    ['size width above 2048', img({ size: '2080x1024' }), 'size'],
    ['size height above 2048', img({ size: '1024x2080' }), 'size'],
    ['size width not divisible by 32', img({ size: '1040x1280' }), 'size'],
    ['size height not divisible by 32', img({ size: '1280x1296' }), 'size'],
    ['size of the other family (512-2048 by 16)', img({ size: '768x1344' }), 'size'],
    ['size 0x0', img({ size: '0x0' }), 'size'],
    ['size with huge numbers', img({ size: `${'9'.repeat(400)}x${'9'.repeat(400)}` }), 'size'],
    ['user_id 5 characters', img({ user_id: repeat(5) }), 'user_id'],
    ['user_id 129 characters', img({ user_id: repeat(129) }), 'user_id'],
  ])('invalid: %s (1214)', async (_label, body, field) => {
    expectRejected(await t.post(url, body), 1214, field);
  });

  it.each([...RECOMMENDED])('recommended size %s passes', async (size) => {
    expectAccepted(await t.post(url, img({ size })));
  });

  it.each<[string, Body]>([
    ['no size, no quality (defaults)', img({})],
    ['custom size at the lower bounds', img({ size: '1024x1024' })],
    ['custom size 2048x2048 (exactly 2^22 pixels)', img({ size: '2048x2048' })],
    ['custom size 1024x2048', img({ size: '1024x2048' })],
    ['custom size divisible by 32', img({ size: '1344x1760' })],
    ['quality hd', img({ quality: 'hd' })],
    ['user_id of 6 characters', img({ user_id: repeat(6) })],
    ['user_id of 128 characters', img({ user_id: repeat(128) })],
    ['null size and quality (Python SDK)', img({ size: null, quality: null, user_id: null })],
    [
      'extra SDK fields',
      img({ response_format: 'url', watermark_enabled: true, sensitive_word_check: { type: 'ALL' }, n: 1 }),
    ],
  ])('accepted: %s', async (_label, body) => {
    expectAccepted(await t.post(url, body));
  });
});

describe('image quality per form', () => {
  it('the sync form takes standard', async () => {
    expectAccepted(await t.post(SYNC, img({ quality: 'standard' })));
  });

  it('the async form takes only hd', async () => {
    const res = await t.post(ASYNC, img({ quality: 'standard' }));
    expectRejected(res, 1214, 'quality');
    expectRejected(res, 1214, 'hd');
  });
});

describe('size message', () => {
  it('states the side rule', async () => {
    const res = await t.post(SYNC, img({ size: '1000x1000' }));
    expectRejected(res, 1214, 'size');
    expectRejected(res, 1214, 'from 1024 to 2048');
    expectRejected(res, 1214, 'divisible by 32');
  });
});
