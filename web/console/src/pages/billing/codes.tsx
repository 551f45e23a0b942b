import { useEffect, useState } from 'preact/hooks';
import { api, type CodeBatch, formatTime } from '../../api';
import { downloadCsv } from '../../components/csv';
import { isAmount, money } from './money';

/** Batches of single-use redemption codes: make one (amount, count, expiry), list them, export a batch. */
export function CodesPanel() {
  const [batches, setBatches] = useState<CodeBatch[]>([]);
  const [amount, setAmount] = useState('');
  const [count, setCount] = useState('10');
  const [expires, setExpires] = useState('');
  const [note, setNote] = useState('');
  const [made, setMade] = useState<{ batch: CodeBatch; codes: string[] } | undefined>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const load = () =>
    api
      .codeBatches()
      .then(setBatches)
      .catch((e: Error) => setError(e.message));
  useEffect(() => {
    load();
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError('');
    if (!isAmount(amount) || Number(amount) === 0) return setError('Give the amount of each code, such as 5.00.');
    if (!/^[0-9]+$/.test(count) || Number(count) < 1) return setError('Give how many codes to make (1 or more).');
    const expiresAt = expires ? Math.floor(Date.parse(`${expires}T23:59:59Z`) / 1000) : undefined;
    setBusy(true);
    try {
      const batch = await api.createCodes({
        amount: amount.trim(),
        count: Number(count),
        ...(expiresAt ? { expires_at: expiresAt } : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      setMade({ batch, codes: batch.codes });
      await load();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const exportBatch = async (batch: CodeBatch) => {
    try {
      const codes = await api.batchCodes(batch.id);
      downloadCsv(
        `codes-${batch.id}.csv`,
        ['code', 'amount', 'currency', 'expires_at', 'redeemed_by', 'redeemed_at'],
        codes.map((c) => [
          c.code,
          batch.amount,
          batch.currency,
          formatTime(batch.expires_at),
          c.redeemed_by ?? '',
          c.redeemed_at === null ? '' : formatTime(c.redeemed_at),
        ]),
      );
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <>
      <form class="card" onSubmit={submit} aria-labelledby="codes-title" noValidate>
        <h2 id="codes-title">Redemption codes</h2>
        <div class="grid3">
          <div>
            <label for="codes-amount">Amount of each code</label>
            <input
              id="codes-amount"
              inputMode="decimal"
              placeholder="5.00"
              value={amount}
              onInput={(e) => setAmount(e.currentTarget.value)}
            />
          </div>
          <div>
            <label for="codes-count">How many</label>
            <input
              id="codes-count"
              type="number"
              min="1"
              inputMode="numeric"
              value={count}
              onInput={(e) => setCount(e.currentTarget.value)}
            />
          </div>
          <div>
            <label for="codes-expires">Expires (end of day, UTC)</label>
            <input id="codes-expires" type="date" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />
          </div>
        </div>
        <label for="codes-note">Note</label>
        <input id="codes-note" maxLength={500} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Create codes
          </button>
        </div>
      </form>
      {made && (
        <div class="card success">
          <h2>
            {made.codes.length} codes of {money(made.batch.amount, made.batch.currency)}
          </h2>
          <label for="made-codes">New codes</label>
          <textarea id="made-codes" readOnly rows={Math.min(8, made.codes.length)} value={made.codes.join('\n')} />
          <div class="actions">
            <button type="button" onClick={() => exportBatch(made.batch)}>
              Download CSV
            </button>
          </div>
        </div>
      )}
      {batches.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption>Code batches</caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col" class="num">
                  Amount
                </th>
                <th scope="col" class="num">
                  Redeemed
                </th>
                <th scope="col">Expires</th>
                <th scope="col">Note</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {batches.map((b) => (
                <tr key={b.id}>
                  <td data-label="Created">{formatTime(b.created_at)}</td>
                  <td data-label="Amount" class="num">
                    {money(b.amount, b.currency)}
                  </td>
                  <td data-label="Redeemed" class="num">
                    {b.redeemed} of {b.count}
                  </td>
                  <td data-label="Expires">{formatTime(b.expires_at)}</td>
                  <td data-label="Note">{b.note || '—'}</td>
                  <td>
                    <button
                      type="button"
                      class="small"
                      aria-label={`Download the codes of ${b.note || b.id}`}
                      onClick={() => exportBatch(b)}
                    >
                      CSV
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
