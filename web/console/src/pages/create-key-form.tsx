import { useEffect, useRef, useState } from 'preact/hooks';
import { type Account, api, type ConsoleKey } from '../api';
import { changeOf, emptyDraft, PolicyFields } from './keys/policy-fields';

/**
 * The "Create key" form: name, endpoints, limits, models, expiry, allowed addresses, description,
 * and for the admin the account that holds it.
 */
export function CreateKeyForm(props: {
  isAdmin: boolean;
  onCreated: (key: ConsoleKey & { key: string }) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState('');
  const [general, setGeneral] = useState(true);
  const [coding, setCoding] = useState(false);
  const [concurrent, setConcurrent] = useState('');
  const [rpm, setRpm] = useState('');
  const [accountId, setAccountId] = useState('');
  const [policy, setPolicy] = useState(emptyDraft);
  const [accounts, setAccounts] = useState<Account[]>([]);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    nameRef.current?.focus();
    if (props.isAdmin) api.accounts().then((list) => setAccounts(list.filter((a) => a.disabled_at === null)));
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    const endpoints = [general && 'general', coding && 'coding'].filter(Boolean);
    if (!name.trim()) return setError('Give the key a name.');
    if (endpoints.length === 0) return setError('Choose at least one endpoint.');
    const limits: Record<string, number> = {};
    if (concurrent) limits['concurrent'] = Number(concurrent);
    if (rpm) limits['requests_per_minute'] = Number(rpm);
    const { models, expires_at, allowed_ips, description } = changeOf(policy);
    setBusy(true);
    setError('');
    try {
      props.onCreated(
        await api.createKey({
          name: name.trim(),
          endpoints,
          ...(Object.keys(limits).length ? { limits } : {}),
          ...(accountId ? { account_id: accountId } : {}),
          ...(models.length ? { models } : {}),
          ...(expires_at ? { expires_at } : {}),
          ...(allowed_ips.length ? { allowed_ips } : {}),
          ...(description ? { description } : {}),
        }),
      );
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="create-key-title" noValidate>
      <h2 id="create-key-title">New API key</h2>
      <label for="key-name">Name</label>
      <input id="key-name" ref={nameRef} value={name} maxLength={128} onInput={(e) => setName(e.currentTarget.value)} />
      <fieldset class="inline">
        <legend>Endpoints</legend>
        <label>
          <input type="checkbox" checked={general} onChange={(e) => setGeneral(e.currentTarget.checked)} />
          general
        </label>
        <label>
          <input type="checkbox" checked={coding} onChange={(e) => setCoding(e.currentTarget.checked)} />
          coding
        </label>
      </fieldset>
      <div class="grid2">
        <div>
          <label for="key-concurrent">Concurrent requests</label>
          <input
            id="key-concurrent"
            type="number"
            min="0"
            inputMode="numeric"
            placeholder="server default"
            value={concurrent}
            onInput={(e) => setConcurrent(e.currentTarget.value)}
          />
        </div>
        <div>
          <label for="key-rpm">Requests per minute</label>
          <input
            id="key-rpm"
            type="number"
            min="0"
            inputMode="numeric"
            placeholder="server default"
            value={rpm}
            onInput={(e) => setRpm(e.currentTarget.value)}
          />
        </div>
      </div>
      <PolicyFields prefix="key" draft={policy} onChange={setPolicy} />
      {props.isAdmin && (
        <>
          <label for="key-account">Account</label>
          <select id="key-account" value={accountId} onChange={(e) => setAccountId(e.currentTarget.value)}>
            <option value="">Admin (no account)</option>
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.email})
              </option>
            ))}
          </select>
        </>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" class="primary" disabled={busy}>
          Create
        </button>
      </div>
    </form>
  );
}
