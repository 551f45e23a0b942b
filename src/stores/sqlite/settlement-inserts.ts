import { LEDGER_INSERT_COLUMNS } from '../money-rows.js';
import { type MultiRowInsert, valuesInsert } from './multi-row-insert.js';

/**
 * A settlement's ledger entries, made from the usage rows just written (by rowid): a row binds its
 * account, amount, balance after, usage row and, when settled late, its note; the rest (actor, note,
 * ref, key, time) SQLite copies from the usage row. Binding a value is most of what a row costs here,
 * so five values instead of nine, four of them numbers, halve it. CROSS JOIN keeps the VALUES as the
 * outer loop: the entries get their ids in the order of the plan, as their balances follow it.
 */
export const LEDGER_FROM_USAGE: MultiRowInsert = {
  name: 'money_ledger from usage_records',
  width: 5,
  sql: (values) =>
    `INSERT INTO money_ledger (${LEDGER_INSERT_COLUMNS})
     SELECT v.column1, v.column2, v.column3, 'usage', 'key:' || u.key_id,
       COALESCE(v.column5, CASE WHEN u.model IS NULL OR u.model = '' THEN u.operation ELSE u.operation || ' ' || u.model END),
       u.journal_id, u.key_id, u.created_at
     FROM (${values}) AS v CROSS JOIN usage_records AS u ON u.id = v.column4`,
};
/** A batch's spend rows are distinct by scope and period (settlement.ts sums them). */
export const SPEND_ADD = valuesInsert(
  'money_spend',
  ['scope', 'period', 'spent'],
  'ON CONFLICT (scope, period) DO UPDATE SET spent = spent + excluded.spent',
);
