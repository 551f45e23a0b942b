import { useEffect, useState } from 'preact/hooks';
import { api, formatTime, type LedgerEntry } from '../../api';
import { KIND_LABEL } from './money';

/** The ledger of an account, newest first, a page at a time: every movement with the balance after it. */
export function LedgerTable({ account, refresh }: { account?: string; refresh: number }) {
  const [entries, setEntries] = useState<LedgerEntry[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    api
      .ledger(undefined, account)
      .then((page) => {
        setEntries(page.data);
        setNext(page.next_before);
      })
      .catch((e: Error) => setError(e.message));
  }, [account, refresh]);

  const more = async () => {
    if (next === null) return;
    try {
      const page = await api.ledger(next, account);
      setEntries([...entries, ...page.data]);
      setNext(page.next_before);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (entries.length === 0) return <p>No movements yet.</p>;
  return (
    <>
      <div class="table-wrap">
        <table>
          <caption>Ledger</caption>
          <thead>
            <tr>
              <th scope="col">When (UTC)</th>
              <th scope="col">What</th>
              <th scope="col" class="num">
                Amount
              </th>
              <th scope="col" class="num">
                Balance after
              </th>
              <th scope="col">Why</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td data-label="When">{formatTime(e.created_at)}</td>
                <td data-label="What">{KIND_LABEL[e.kind]}</td>
                <td data-label="Amount" class={`num ${e.amount.startsWith('-') ? 'minus' : 'plus'}`}>
                  {e.amount}
                </td>
                <td data-label="Balance after" class="num">
                  {e.balance_after}
                </td>
                <td data-label="Why">{e.note || '—'}</td>
                <td data-label="By">
                  <code>{e.actor}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {next !== null && (
        <button type="button" onClick={more}>
          Older entries
        </button>
      )}
    </>
  );
}
