import { useState } from 'preact/hooks';
import { consoleApi } from '../api';

/** An account holder replaces the initial password (their other sessions end). */
export function PasswordPage() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState('');
  const [done, setDone] = useState('');

  const submit = async (e: Event) => {
    e.preventDefault();
    setError('');
    setDone('');
    if (next.length < 10) return setError('The new password needs at least 10 characters.');
    if (next !== repeat) return setError('The two new passwords differ.');
    try {
      await consoleApi('POST', '/password', { current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setRepeat('');
      setDone('Password changed. Your other sessions have been signed out.');
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <section aria-labelledby="password-title">
      <h1 id="password-title" tabIndex={-1}>
        Password
      </h1>
      <form class="card narrow" onSubmit={submit} noValidate>
        <label for="pw-current">Current password</label>
        <input
          id="pw-current"
          type="password"
          autocomplete="current-password"
          value={current}
          onInput={(e) => setCurrent(e.currentTarget.value)}
        />
        <label for="pw-new">New password</label>
        <input
          id="pw-new"
          type="password"
          autocomplete="new-password"
          minLength={10}
          aria-describedby="pw-rule"
          value={next}
          onInput={(e) => setNext(e.currentTarget.value)}
        />
        <p id="pw-rule" class="muted">
          At least 10 characters.
        </p>
        <label for="pw-repeat">Repeat the new password</label>
        <input
          id="pw-repeat"
          type="password"
          autocomplete="new-password"
          value={repeat}
          onInput={(e) => setRepeat(e.currentTarget.value)}
        />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <p role="status">{done}</p>
        <div class="actions">
          <button type="submit" class="primary">
            Change password
          </button>
        </div>
      </form>
    </section>
  );
}
