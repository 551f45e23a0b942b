import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fillSections, GENERATED_SECTIONS } from '../../src/docs/reference-tables.js';
import { ERROR_CODES } from '../../src/errors/codes.js';

describe('docs kept in sync with the code', () => {
  for (const [file, sections] of Object.entries(GENERATED_SECTIONS)) {
    it(`${file} embeds the current tables (run \`npm run docs\` after changing them)`, () => {
      const text = readFileSync(file, 'utf8');
      expect(fillSections(text, sections)).toBe(text);
    });
  }

  it('lists every error code of docs/wire.md, "Errors" with its HTTP status', () => {
    const decisions = {
      500: 500,
      1000: 401,
      1001: 401,
      1002: 401,
      1003: 401,
      1004: 401,
      1113: 429,
      1210: 400,
      1211: 400,
      1212: 400,
      1213: 400,
      1214: 400,
      1215: 400,
      1220: 403,
      1222: 404,
      1231: 400,
      1233: 404,
      1234: 502,
      1261: 400,
      1301: 400,
      1302: 429,
      1303: 429,
      1305: 503,
      1308: 429,
    };
    const ours = Object.fromEntries(Object.entries(ERROR_CODES).map(([c, s]) => [c, s.status]));
    expect(ours).toEqual(Object.fromEntries(Object.entries(decisions).map(([c, s]) => [c, s])));
  });
});
