import { useState } from 'preact/hooks';
import { api } from '../../api';
import { money } from './money';

/** "Redeem a code": the account holder types a code handed out by the admin; its amount is credited once. */
export function RedeemForm({ onRedeemed }: { onRedeemed: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError('');
    setDone('');
    if (!code.trim()) return setError('Type the code, e.g. GPC-7K2M-…');
    setBusy(true);
    try {
      const entry = await api.redeem(code.trim());
      setDone(`${money(entry.amount, entry.currency)} added. Balance: ${money(entry.balance_after, entry.currency)}.`);
      setCode('');
      onRedeemed();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="redeem-title" noValidate>
      <h2 id="redeem-title">Redeem a code</h2>
      <label for="redeem-code">Redemption code</label>
      <div class="row">
        <input
          id="redeem-code"
          value={code}
          autoComplete="off"
          spellcheck={false}
          placeholder="GPC-XXXX-XXXX-XXXX-XXXX"
          onInput={(e) => setCode(e.currentTarget.value)}
        />
        <button type="submit" class="primary" disabled={busy}>
          Redeem
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="muted" role="status">
        {done}
      </p>
    </form>
  );
}
