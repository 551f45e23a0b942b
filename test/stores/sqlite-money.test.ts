import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewMovement, ReservationRequest } from '../../src/stores/money.js';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sqlite-money-'));
const file = path.join(dir, 'gen-platform.db');
const server = new SqliteStore(file);
/** Another connection to the same file (a second process, the CLI). */
const other = new SqliteStore(file);
afterAll(async () => {
  await server.close();
  await other.close();
  rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
const reservation = (accountId: string, amount: number): ReservationRequest => ({
  id: `r${++seq}`,
  accountId,
  keyId: 'k0',
  amount,
  owner: 'owner-a',
  leaseMs: 60_000,
  periods: { day: '2026-03-01', month: '2026-03' },
  requireBalance: true,
});
const movement = (accountId: string, amount: number): NewMovement => ({
  accountId,
  amount,
  kind: amount < 0 ? 'debit' : 'credit',
  actor: 'key:admin',
  note: 'test',
  at: Date.now(),
  covered: false,
});
/** Past the store's wait between two reads of data_version (other-commits.ts). */
const pastVersionRead = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('SQLite money: the balance reservations check, kept in memory', () => {
  it("follows this process's own credits, settlements and releases exactly", async () => {
    await server.money.move(movement('own', 1_000));
    const whole = reservation('own', 1_000);
    expect(await server.money.reserve(whole)).toBeUndefined();
    expect(await server.money.reserve(reservation('own', 1))).toMatchObject({ what: 'balance', limit: 1_000 });
    await server.money.release(whole.id);
    const call = reservation('own', 400);
    expect(await server.money.reserve(call)).toBeUndefined();
    await server.recordUsage([
      {
        keyId: 'k0',
        operation: 'chat.completions',
        model: 'gen-4.6',
        requestId: undefined,
        promptTokens: 1,
        completionTokens: 1,
        status: 200,
        latencyMs: 1,
        createdAt: Date.now(),
        journalId: 'j-own',
        accountId: 'own',
        reservationId: call.id,
        cost: 300,
      },
    ]);
    // 1000 - 300 billed, nothing held: 700 fits, 701 does not.
    expect(await server.money.reserve(reservation('own', 701))).toMatchObject({ what: 'balance', limit: 700 });
    expect(await server.money.reserve(reservation('own', 700))).toBeUndefined();
  });

  it('sees a credit or debit committed by another connection', async () => {
    await server.money.move(movement('shared', 500));
    expect(await server.money.reserve(reservation('shared', 600))).toMatchObject({ what: 'balance', limit: 500 });
    await other.money.move(movement('shared', 100));
    await pastVersionRead();
    expect(await server.money.reserve(reservation('shared', 600))).toBeUndefined();
    await other.money.move(movement('shared', -600));
    await pastVersionRead();
    expect(await server.money.reserve(reservation('shared', 1))).toMatchObject({ what: 'balance', limit: 0 });
  });
});
