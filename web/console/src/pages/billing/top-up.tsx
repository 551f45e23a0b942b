import { useEffect, useState } from 'preact/hooks';
import { type AccountBalance, api } from '../../api';
import { BudgetForm, budgetText } from './budget-form';
import { isAmount, money } from './money';

/** The admin's accounts with their balances, and the "Top up" form (a negative amount debits). */
export function TopUp({ refresh, onMoved }: { refresh: number; onMoved: () => void }) {
  const [accounts, setAccounts] = useState<AccountBalance[]>([]);
  const [account, setAccount] = useState('admin');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const [budgeting, setBudgeting] = useState<AccountBalance | undefined>();
  const [loaded, setLoaded] = useState(0);

  useEffect(() => {
    api
      .accountBalances()
      .then((r) => setAccounts(r.data))
      .catch((e: Error) => setError(e.message));
  }, [refresh, loaded]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError('');
    setDone('');
    if (!isAmount(amount, true) || Number(amount) === 0)
      return setError('Give an amount such as 37.00 (at most 6 decimals; negative to debit).');
    setBusy(true);
    try {
      const entry = await api.credit(account, amount.trim(), note.trim());
      const name = accounts.find((a) => a.id === account)?.name ?? account;
      setDone(
        `${name}: ${money(entry.amount, entry.currency)}; balance ${money(entry.balance_after, entry.currency)}.`,
      );
      setAmount('');
      setNote('');
      onMoved();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h2 id="accounts-balances">Accounts</h2>
      <div class="table-wrap">
        <table aria-labelledby="accounts-balances">
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col" class="num">
                Balance
              </th>
              <th scope="col" class="num">
                Reserved
              </th>
              <th scope="col" class="num">
                Available
              </th>
              <th scope="col">Budget</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr key={a.id} class={a.disabled ? 'revoked' : ''}>
                <th scope="row" data-label="Account">
                  {a.name}
                  {a.email && <span class="muted small-note"> {a.email}</span>}
                </th>
                <td data-label="Balance" class="num">
                  {money(a.balance, a.currency)}
                </td>
                <td data-label="Reserved" class="num">
                  {a.reserved}
                </td>
                <td data-label="Available" class="num">
                  {a.available}
                </td>
                <td data-label="Budget">
                  {budgetText(a.budget)}
                  <button
                    type="button"
                    class="link"
                    aria-label={`Set the budget of ${a.name}`}
                    onClick={() => setBudgeting(a)}
                  >
                    Set
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {budgeting && (
        <BudgetForm
          kind="accounts"
          id={budgeting.id}
          name={budgeting.name}
          current={budgeting.budget}
          currency={budgeting.currency}
          onCancel={() => setBudgeting(undefined)}
          onDone={() => {
            setBudgeting(undefined);
            setLoaded(loaded + 1);
          }}
        />
      )}
      <form class="card" onSubmit={submit} aria-labelledby="top-up-title" noValidate>
        <h2 id="top-up-title">Top up an account</h2>
        <div class="grid2">
          <div>
            <label for="top-up-account">Account</label>
            <select id="top-up-account" value={account} onChange={(e) => setAccount(e.currentTarget.value)}>
              {accounts.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                  {a.email ? ` (${a.email})` : ''}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="top-up-amount">Amount (negative to debit)</label>
            <input
              id="top-up-amount"
              inputMode="decimal"
              placeholder="37.00"
              value={amount}
              onInput={(e) => setAmount(e.currentTarget.value)}
            />
          </div>
        </div>
        <label for="top-up-note">Note</label>
        <input id="top-up-note" maxLength={500} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <p class="muted" role="status">
          {done}
        </p>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Top up
          </button>
        </div>
      </form>
    </>
  );
}
