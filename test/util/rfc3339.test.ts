import { describe, expect, it } from 'vitest';
import { parseRfc3339 } from '../../src/util/rfc3339.js';

describe('parseRfc3339', () => {
  it('reads a timestamp with Z or an offset as the instant it names', () => {
    expect(parseRfc3339('2026-05-01T00:00:00Z')).toBe(Date.UTC(2026, 4, 1));
    expect(parseRfc3339('2026-05-01t08:00:00+08:00')).toBe(Date.UTC(2026, 4, 1));
    expect(parseRfc3339('2026-04-30 19:00:00.250-05:00')).toBe(Date.UTC(2026, 4, 1, 0, 0, 0, 250));
  });

  it('refuses a time without an offset, a bare date and impossible fields, whatever the local time zone', () => {
    for (const value of [
      '2026-05-01T00:00:00',
      '2026-05-01',
      '2026-05-01T00:00Z',
      '2026-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-05-01T24:00:00Z',
      '2026-13-01T00:00:00Z',
      '1777593600',
    ]) {
      expect(parseRfc3339(value), value).toBeNaN();
    }
    expect(parseRfc3339('2028-02-29T00:00:00Z')).toBe(Date.UTC(2028, 1, 29));
  });
});
