import { useState } from 'preact/hooks';
import { api, type SessionInfo } from '../api';

/**
 * One form, one "Sign in" button: an account holder fills in email and password, the operator
 * the admin key. Whichever is filled in is used.
 */
export function SignIn({ notice, onSignedIn }: { notice: string; onSignedIn: (info: SessionInfo) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [adminKey, setAdminKey] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError('');
    const body: Record<string, string> = adminKey.trim() ? { admin_key: adminKey.trim() } : { email, password };
    if (!adminKey.trim() && (!email || !password)) {
      setError('Enter your email and password, or the admin key.');
      return;
    }
    setBusy(true);
    try {
      onSignedIn(await api.signIn(body));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <h1>Sign in to the console</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <fieldset>
          <legend>Account holder</legend>
          <label for="email">Email</label>
          <input
            id="email"
            type="email"
            autocomplete="username"
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
          <label for="password">Password</label>
          <input
            id="password"
            type="password"
            autocomplete="current-password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </fieldset>
        <fieldset>
          <legend>Or the operator</legend>
          <label for="admin-key">Admin key</label>
          <input
            id="admin-key"
            type="password"
            autocomplete="off"
            value={adminKey}
            onInput={(e) => setAdminKey(e.currentTarget.value)}
          />
        </fieldset>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
