import { useEffect, useState } from 'preact/hooks';
import { type Account, api, type ConsoleKey, formatTime, type KeySpend, type SessionInfo } from '../api';
import { Confirm } from '../components/confirm';
import { CopyField } from '../components/copy-field';
import { rememberKey } from '../key-memory';
import { BudgetForm, budgetText } from './billing/budget-form';
import { CreateKeyForm } from './create-key-form';

const limitsText = (k: ConsoleKey): string => {
  if (!k.limits) return 'default';
  const parts = [];
  if (k.limits.concurrent) parts.push(`${k.limits.concurrent} concurrent`);
  if (k.limits.requests_per_minute) parts.push(`${k.limits.requests_per_minute}/min`);
  for (const w of k.limits.windows) parts.push(`${w.requests}/${w.hours}h`);
  return parts.join(', ') || 'none';
};

export function KeysPage({ session }: { session: SessionInfo }) {
  const isAdmin = session.principal.kind === 'admin';
  const [keys, setKeys] = useState<ConsoleKey[] | undefined>();
  const [error, setError] = useState('');
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ name: string; key: string } | undefined>();
  const [revoking, setRevoking] = useState<ConsoleKey | undefined>();
  const [status, setStatus] = useState('');
  const [holders, setHolders] = useState<Map<string, Account>>(new Map());
  const [spend, setSpend] = useState<{ currency: string; byKey: Map<string, KeySpend> }>();
  const [budgeting, setBudgeting] = useState<ConsoleKey | undefined>();

  const load = () => {
    api
      .keySpend()
      .then((r) => setSpend({ currency: r.currency, byKey: new Map(r.data.map((s) => [s.key_id, s])) }))
      .catch((e: Error) => setError(e.message));
    return api
      .keys()
      .then(setKeys)
      .catch((e: Error) => setError(e.message));
  };
  useEffect(() => {
    load();
    if (isAdmin) api.accounts().then((list) => setHolders(new Map(list.map((a) => [a.id, a]))));
  }, []);
  const holderName = (k: ConsoleKey) => (k.account_id ? (holders.get(k.account_id)?.name ?? k.account_id) : 'Admin');

  const revoke = async (key: ConsoleKey) => {
    setRevoking(undefined);
    try {
      await api.revokeKey(key.id);
      setStatus(`Key ${key.name} revoked.`);
      await load();
      // The row's button is gone: focus goes back to the page's heading rather than nowhere.
      document.getElementById('keys-title')?.focus();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <div class="page-head">
        <h1 id="keys-title" tabIndex={-1}>
          API keys
        </h1>
        {!creating && (
          <button
            type="button"
            class="primary"
            onClick={() => {
              setCreated(undefined);
              setCreating(true);
            }}
          >
            Create key
          </button>
        )}
      </div>
      <p class="muted">
        {isAdmin ? 'All keys on this server.' : 'Your keys.'} A key is sent as{' '}
        <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      {creating && (
        <CreateKeyForm
          isAdmin={isAdmin}
          onCancel={() => setCreating(false)}
          onCreated={(k) => {
            setCreating(false);
            setCreated({ name: k.name, key: k.key });
            rememberKey({ name: k.name, key: k.key });
            load();
          }}
        />
      )}
      {created && (
        <div class="card success">
          <h2>Key {created.name} created</h2>
          <CopyField
            id="new-key"
            label="New key"
            value={created.key}
            note="Copy it now: it is shown only this once. The playground can use it until you leave this page."
          />
        </div>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="sr-only" role="status">
        {status}
      </p>
      {keys && keys.length === 0 && <p>No keys yet.</p>}
      {keys && keys.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                {isAdmin && <th scope="col">Holder</th>}
                <th scope="col">Id</th>
                <th scope="col">Endpoints</th>
                <th scope="col">Limits</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col" class="num">
                  Spend{spend ? ` (${spend.currency})` : ''}
                </th>
                <th scope="col">Budget</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} class={k.status}>
                  <th scope="row" data-label="Name">
                    {k.name}
                    {k.role === 'admin' && <span class="badge">admin</span>}
                  </th>
                  {isAdmin && <td data-label="Holder">{holderName(k)}</td>}
                  <td data-label="Id">
                    <code>{k.id}</code>
                  </td>
                  <td data-label="Endpoints">{k.endpoints.join(', ') || '—'}</td>
                  <td data-label="Limits">{limitsText(k)}</td>
                  <td data-label="Created">{formatTime(k.created_at)}</td>
                  <td data-label="Last used">{formatTime(k.last_used_at)}</td>
                  <td data-label="Spend today / month / total" class="num spend-cell">
                    {spendText(spend?.byKey.get(k.id))}
                  </td>
                  <td data-label="Budget">
                    {budgetText(spend?.byKey.get(k.id)?.budget ?? null)}
                    {isAdmin && k.status === 'active' && (
                      <button
                        type="button"
                        class="link"
                        aria-label={`Set the budget of ${k.name}`}
                        onClick={() => setBudgeting(k)}
                      >
                        Set
                      </button>
                    )}
                  </td>
                  <td data-label="Status">
                    <span class={`status ${k.status}`}>{k.status}</span>
                  </td>
                  <td>
                    {k.status === 'active' && (
                      <button
                        type="button"
                        class="danger small"
                        aria-label={`Revoke ${k.name}`}
                        onClick={() => setRevoking(k)}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {budgeting && spend && (
        <BudgetForm
          kind="keys"
          id={budgeting.id}
          name={budgeting.name}
          current={spend.byKey.get(budgeting.id)?.budget ?? null}
          currency={spend.currency}
          onCancel={() => setBudgeting(undefined)}
          onDone={() => {
            setStatus(`Budget of ${budgeting.name} saved.`);
            setBudgeting(undefined);
            load();
          }}
        />
      )}
      {revoking && (
        <Confirm
          title={`Revoke ${revoking.name}?`}
          message="Every request made with this key will be refused from now on. This cannot be undone."
          action="Revoke"
          onCancel={() => setRevoking(undefined)}
          onConfirm={() => revoke(revoking)}
        />
      )}
    </section>
  );
}

/** Today / this month / in all, as `0.12 / 3.40 / 20.00`. */
const spendText = (s: KeySpend | undefined): string =>
  s ? `${s.spent.day} / ${s.spent.month} / ${s.spent.total}` : '—';
