import { useEffect, useState } from 'preact/hooks';
import { type Account, api, type ConsoleKey, formatTime, type KeySpend, type SessionInfo } from '../api';
import { Confirm } from '../components/confirm';
import { CopyField } from '../components/copy-field';
import { rememberKey } from '../key-memory';
import { BudgetForm } from './billing/budget-form';
import { CreateKeyForm } from './create-key-form';
import { EditKeyForm } from './keys/edit-key-form';
import { type KeyAction, KeyRow } from './keys/key-row';
import { RollKeyForm } from './keys/roll-key-form';

/** A secret the page has just been given, shown once. */
interface Shown {
  title: string;
  key: string;
  note: string;
}

const ONCE = 'Copy it now: it is shown only this once. The playground can use it until you leave this page.';

export function KeysPage({ session }: { session: SessionInfo }) {
  const isAdmin = session.principal.kind === 'admin';
  const [keys, setKeys] = useState<ConsoleKey[] | undefined>();
  const [error, setError] = useState('');
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Shown | undefined>();
  const [editing, setEditing] = useState<ConsoleKey | undefined>();
  const [rolling, setRolling] = useState<ConsoleKey | undefined>();
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

  const act = (action: KeyAction, k: ConsoleKey) => {
    setCreating(false);
    setEditing(undefined);
    setRolling(undefined);
    setCreated(undefined);
    if (action === 'edit') setEditing(k);
    if (action === 'roll') setRolling(k);
    if (action === 'revoke') setRevoking(k);
    if (action === 'budget') setBudgeting(k);
  };

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
              setEditing(undefined);
              setRolling(undefined);
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
            setCreated({ title: `Key ${k.name} created`, key: k.key, note: ONCE });
            rememberKey({ name: k.name, key: k.key });
            load();
          }}
        />
      )}
      {editing && (
        <EditKeyForm
          keyView={editing}
          onCancel={() => setEditing(undefined)}
          onSaved={(k) => {
            setEditing(undefined);
            setStatus(`Key ${k.name} saved.`);
            load();
          }}
        />
      )}
      {rolling && (
        <RollKeyForm
          keyView={rolling}
          onCancel={() => setRolling(undefined)}
          onRolled={(k) => {
            setRolling(undefined);
            const until = k.previous_secret_until;
            setCreated({
              title: `Key ${k.name} rolled`,
              key: k.key,
              note: `${ONCE} ${until === null ? 'The old secret no longer works.' : `The old secret works until ${formatTime(until)} UTC.`}`,
            });
            rememberKey({ name: k.name, key: k.key });
            load();
          }}
        />
      )}
      {created && (
        <div class="card success">
          <h2>{created.title}</h2>
          <CopyField id="new-key" label="New key" value={created.key} note={created.note} />
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
                <th scope="col">Name and id</th>
                {isAdmin && <th scope="col">Holder</th>}
                <th scope="col">Endpoints</th>
                <th scope="col">Access</th>
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
                <KeyRow
                  key={k.id}
                  k={k}
                  isAdmin={isAdmin}
                  holder={holderName(k)}
                  spend={spend?.byKey.get(k.id)}
                  onAction={act}
                />
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
