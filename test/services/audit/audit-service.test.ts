import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditService } from '../../../src/services/audit/audit-service.js';
import { REDACTED, redact } from '../../../src/services/audit/redact.js';
import type { AuditEntry, AuditStore } from '../../../src/stores/audit.js';
import { StoreUnavailableError } from '../../../src/stores/faults.js';
import { SqliteStore } from '../../../src/stores/sqlite/sqlite-store.js';

const dirs: string[] = [];
const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function store(): SqliteStore {
  const dir = mkdtempSync(path.join(tmpdir(), 'audit-service-'));
  dirs.push(dir);
  const s = new SqliteStore(path.join(dir, 'store.db'));
  stores.push(s);
  return s;
}
const lines = () => {
  const info: { details: Record<string, unknown>; message: string }[] = [];
  const error: { details: Record<string, unknown>; message: string }[] = [];
  return {
    info,
    error,
    log: {
      info: (details: Record<string, unknown>, message: string) => info.push({ details, message }),
      error: (details: Record<string, unknown>, message: string) => error.push({ details, message }),
    },
  };
};

describe('audit service', () => {
  it('appends each act to the store and writes it to the log as one line', async () => {
    const s = store();
    const out = lines();
    const audit = new AuditService(s.audit, { log: out.log, now: () => Date.UTC(2026, 4, 1, 12) });
    await audit.record(
      { id: 'key:abc', address: '198.51.100.4' },
      { action: 'key.create', target: 'key:k1', after: { name: 'ci', models: ['gen-4.6'] } },
    );
    const [record] = await audit.list({ limit: 10 });
    expect(record).toMatchObject({
      at: Date.UTC(2026, 4, 1, 12),
      actor: 'key:abc',
      address: '198.51.100.4',
      action: 'key.create',
      target: 'key:k1',
      before: null,
      after: { name: 'ci', models: ['gen-4.6'] },
    });
    expect(out.info).toHaveLength(1);
    expect(out.info[0]!.details).toEqual({
      audit: {
        id: record!.id,
        at: '2026-05-01T12:00:00.000Z',
        actor: 'key:abc',
        address: '198.51.100.4',
        action: 'key.create',
        target: 'key:k1',
        before: null,
        after: { name: 'ci', models: ['gen-4.6'] },
      },
    });
    expect(JSON.stringify(out.info[0]!.details)).not.toContain('\n');
  });

  it('never writes a secret: credential fields and key- or token-shaped strings are redacted', () => {
    const key = `${'a'.repeat(32)}.${'S3cr3t_-'.repeat(4)}`;
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJhcGlfa2V5IjoieCJ9.c2lnbmF0dXJl';
    const out = redact({
      name: 'ci',
      key,
      secret: 'x',
      secret_hash: 'y',
      password: 'hunter22',
      new_password: 'z',
      csrf_token: 't',
      note: `pasted ${key} and ${jwt} here`,
      nested: [{ api_key: 'k', keep: 1 }],
    });
    expect(out).toEqual({
      name: 'ci',
      key: REDACTED,
      secret: REDACTED,
      secret_hash: REDACTED,
      password: REDACTED,
      new_password: REDACTED,
      csrf_token: REDACTED,
      note: `pasted ${REDACTED} and ${REDACTED} here`,
      nested: [{ api_key: REDACTED, keep: 1 }],
    });
  });

  it("keeps a time whose field name mentions a secret (a roll's previous_secret_until), never a text there", () => {
    expect(redact({ previous_secret_until: 1_800_000_000, token_expires_at: null })).toEqual({
      previous_secret_until: 1_800_000_000,
      token_expires_at: null,
    });
    expect(redact({ previous_secret_until: 'hunter22', secret_at: { v: 1 } })).toEqual({
      previous_secret_until: REDACTED,
      secret_at: REDACTED,
    });
  });

  it('keeps a record whose store write fails in the log line, and does not undo the act', async () => {
    const out = lines();
    const failing: AuditStore = {
      append: async () => {
        throw new StoreUnavailableError({ kind: 'unavailable', cause: 'test: the database is away', notRun: true });
      },
      list: async () => [],
      deleteBefore: async () => 0,
    };
    const audit = new AuditService(failing, { log: out.log, retryMs: 300 });
    await audit.record({ id: 'key:abc' }, { action: 'key.revoke', target: 'key:k1' });
    expect(out.info).toHaveLength(0);
    expect(out.error).toHaveLength(1);
    expect(out.error[0]!.message).toMatch(/could not be written to the store; this line is its only record/);
    expect(out.error[0]!.details['audit']).toMatchObject({ action: 'key.revoke', target: 'key:k1', actor: 'key:abc' });
  });

  it('bounds the records of anonymous acts per minute and records how many it left out', async () => {
    const appended: AuditEntry[] = [];
    const memory: AuditStore = {
      append: async (e) => {
        appended.push(e);
        return { ...e, id: appended.length };
      },
      list: async () => [],
      deleteBefore: async () => 0,
    };
    let now = 60_000 * 1000;
    const audit = new AuditService(memory, { anonymousPerMinute: 3, now: () => now });
    for (let i = 0; i < 10; i++) {
      await audit.record({ id: 'anonymous', address: '203.0.113.9' }, { action: 'session.sign_in_failed' });
    }
    // Signed-in actors are never bounded.
    await audit.record({ id: 'key:abc' }, { action: 'key.create' });
    expect(appended.map((e) => e.action)).toEqual([
      'session.sign_in_failed',
      'session.sign_in_failed',
      'session.sign_in_failed',
      'key.create',
    ]);
    now += 60_000;
    await audit.record({ id: 'anonymous' }, { action: 'session.sign_in_failed' });
    await new Promise((r) => setTimeout(r, 10));
    expect(appended.slice(4).map((e) => [e.action, e.after])).toEqual([
      ['audit.suppressed', { anonymous_records: 7 }],
      ['session.sign_in_failed', null],
    ]);
    audit.close();
  });
});
