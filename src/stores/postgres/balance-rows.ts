import type pg from 'pg';
import type { Balance, LedgerEntry, NewMovement } from '../money.js';
import { LEDGER_INSERT_COLUMNS, type LedgerRow, ledgerFromRow } from '../money-rows.js';

export type Queryable = Pick<pg.PoolClient, 'query'>;

/** The account's balance row, made if missing and locked for the rest of the transaction. */
export async function lockBalance(client: Queryable, accountId: string, at: number): Promise<Balance> {
  await client.query(
    `INSERT INTO money_balances (account_id, balance, reserved, updated_at) VALUES ($1, 0, 0, $2)
     ON CONFLICT (account_id) DO NOTHING`,
    [accountId, at],
  );
  const { rows } = await client.query<Balance>(
    'SELECT balance, reserved FROM money_balances WHERE account_id = $1 FOR UPDATE',
    [accountId],
  );
  return rows[0]!;
}

/** Moves the balance from `before` by the movement's amount and writes its ledger entry. */
export async function writeMovement(
  client: Queryable,
  m: Omit<NewMovement, 'covered'>,
  before: number,
): Promise<LedgerEntry> {
  const after = before + m.amount;
  await client.query('UPDATE money_balances SET balance = $2, updated_at = $3 WHERE account_id = $1', [
    m.accountId,
    after,
    m.at,
  ]);
  const { rows } = await client.query<LedgerRow>(
    `INSERT INTO money_ledger (${LEDGER_INSERT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8) RETURNING *`,
    [m.accountId, m.amount, after, m.kind, m.actor, m.note, m.ref ?? null, m.at],
  );
  return ledgerFromRow(rows[0]!);
}
