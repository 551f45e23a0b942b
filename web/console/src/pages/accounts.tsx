import { useEffect, useState } from 'preact/hooks';
import { type Account, type AccountPolicy, api, formatTime } from '../api';
import { Confirm } from '../components/confirm';
import { CopyField } from '../components/copy-field';
import { AccountPolicyForm, policyText } from './accounts/policy-form';

/**
 * The admin's list of account holders: create one (initial password shown once), set what its keys
 * share (limits, key cap, models), disable one.
 */
export function AccountsPage() {
  const [accounts, setAccounts] = useState<Account[] | undefined>();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const [created, setCreated] = useState<{ email: string; password: string } | undefined>();
  const [disabling, setDisabling] = useState<Account | undefined>();
  const [policies, setPolicies] = useState<Map<string, AccountPolicy>>(new Map());
  const [editing, setEditing] = useState<Account | undefined>();
  const [status, setStatus] = useState('');

  const load = () => {
    api
      .accountPolicies()
      .then((list) => setPolicies(new Map(list.map((p) => [p.account_id, p]))))
      .catch((e: Error) => setError(e.message));
    return api
      .accounts()
      .then(setAccounts)
      .catch((e: Error) => setError(e.message));
  };
  useEffect(() => {
    load();
  }, []);

  const create = async (e: Event) => {
    e.preventDefault();
    setError('');
    try {
      const account = await api.createAccount({ name: name.trim(), email: email.trim() });
      setCreated({ email: account.email, password: account.password });
      setName('');
      setEmail('');
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const disable = async (account: Account) => {
    setDisabling(undefined);
    try {
      await api.disableAccount(account.id);
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <section aria-labelledby="accounts-title">
      <h1 id="accounts-title" tabIndex={-1}>
        Accounts
      </h1>
      <form class="card" onSubmit={create} aria-labelledby="new-account-title" noValidate>
        <h2 id="new-account-title">New account holder</h2>
        <div class="grid2">
          <div>
            <label for="account-name">Full name</label>
            <input id="account-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </div>
          <div>
            <label for="account-email">Email address</label>
            <input id="account-email" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          </div>
        </div>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <div class="actions">
          <button type="submit" class="primary">
            Create account
          </button>
        </div>
      </form>
      {created && (
        <div class="card success">
          <h2>Account {created.email} created</h2>
          <CopyField
            id="initial-password"
            label="Initial password"
            value={created.password}
            note="Give it to the account holder: it is shown only this once."
          />
        </div>
      )}
      {accounts && accounts.length === 0 && <p>No account holders yet.</p>}
      {accounts && accounts.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Account holders</caption>
            <thead>
              <tr>
                <th scope="col">Holder</th>
                <th scope="col">Email</th>
                <th scope="col">Keys share</th>
                <th scope="col">Created</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {accounts.map((a) => (
                <tr key={a.id}>
                  <th scope="row" data-label="Holder">
                    {a.name}
                  </th>
                  <td data-label="Email">{a.email}</td>
                  <td data-label="Keys share" class="access-cell">
                    {policies.get(a.id) ? policyText(policies.get(a.id)!) : '—'}{' '}
                    {!a.disabled_at && policies.get(a.id) && (
                      <button
                        type="button"
                        class="link"
                        aria-label={`Set what the keys of ${a.name} share`}
                        onClick={() => {
                          setCreated(undefined);
                          setEditing(a);
                        }}
                      >
                        Set
                      </button>
                    )}
                  </td>
                  <td data-label="Created">{formatTime(a.created_at)}</td>
                  <td data-label="Status">
                    <span class={`status ${a.disabled_at ? 'revoked' : 'active'}`}>
                      {a.disabled_at ? 'disabled' : 'active'}
                    </span>
                  </td>
                  <td>
                    {!a.disabled_at && (
                      <button
                        type="button"
                        class="danger small"
                        aria-label={`Disable ${a.name}`}
                        onClick={() => setDisabling(a)}
                      >
                        Disable
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && policies.get(editing.id) && (
        <AccountPolicyForm
          name={editing.name}
          policy={policies.get(editing.id)!}
          onCancel={() => setEditing(undefined)}
          onSaved={(p) => {
            setPolicies(new Map(policies).set(p.account_id, p));
            setStatus(`Saved what the keys of ${editing.name} share.`);
            setEditing(undefined);
          }}
        />
      )}
      <p class="sr-only" role="status">
        {status}
      </p>
      {disabling && (
        <Confirm
          title={`Disable ${disabling.name}?`}
          message="The holder is signed out, cannot sign in again, and every key of the account is revoked."
          action="Disable"
          onCancel={() => setDisabling(undefined)}
          onConfirm={() => disable(disabling)}
        />
      )}
    </section>
  );
}
