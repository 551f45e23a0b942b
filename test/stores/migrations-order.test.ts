import { describe, expect, it } from 'vitest';
import { POSTGRES_MIGRATIONS } from '../../src/stores/postgres/migrations.js';
import { SQLITE_MIGRATIONS } from '../../src/stores/sqlite/migrations.js';

describe('migrations', () => {
  it('are listed once each, in version order, with the same versions on both stores', () => {
    for (const list of [SQLITE_MIGRATIONS, POSTGRES_MIGRATIONS]) {
      const versions = list.map((m) => m.version);
      expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    }
    expect(SQLITE_MIGRATIONS.map((m) => m.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
  });
});
