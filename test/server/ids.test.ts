import { describe, expect, it } from 'vitest';
import { newToolCallId } from '../../src/ids/tool-call-id.js';
import { newPlatformId } from '../../src/server/ids.js';

describe('ids', () => {
  it('are the UTC time and 16 hex characters, 30 in all', () => {
    expect(newPlatformId(new Date('2026-11-21T05:18:00.500Z'))).toMatch(/^20261121051800[0-9a-f]{16}$/);
    expect(newPlatformId(new Date('2026-11-21T05:18:01Z')).slice(0, 14)).toBe('20261121051801');
  });

  it('do not repeat across many draws, past the random pool refills', () => {
    const ids = new Set(Array.from({ length: 5000 }, () => newPlatformId()));
    expect(ids.size).toBe(5000);
    const calls = new Set(Array.from({ length: 2000 }, () => newToolCallId()));
    expect(calls.size).toBe(2000);
    for (const id of calls) expect(id).toMatch(/^call_[0-9a-f]{24}$/);
  });
});
