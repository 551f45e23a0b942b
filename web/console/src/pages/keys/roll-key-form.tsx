import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type ConsoleKey } from '../../api';

/** How long the replaced secret keeps working; the server takes up to 30 days. */
const GRACE = [
  [0, 'Not at all: refuse it at once'],
  [3600, '1 hour'],
  [86_400, '1 day'],
  [7 * 86_400, '7 days'],
  [30 * 86_400, '30 days'],
] as const;

/** Rolls a key: a new secret (shown once by the page), same id and settings, the old one kept for a while. */
export function RollKeyForm(props: {
  keyView: ConsoleKey;
  onRolled: (k: ConsoleKey & { key: string }) => void;
  onCancel: () => void;
}) {
  const k = props.keyView;
  const [grace, setGrace] = useState('3600');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLSelectElement>(null);
  useEffect(() => first.current?.focus(), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      props.onRolled(await api.rollKey(k.id, Number(grace)));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="roll-key-title" noValidate>
      <h2 id="roll-key-title">Roll {k.name}</h2>
      <p class="muted">
        A new secret replaces the current one. The key keeps its id, settings, usage and budget; clients change only the
        secret they send.
      </p>
      <label for="roll-grace">The current secret keeps working for</label>
      <select id="roll-grace" ref={first} value={grace} onChange={(e) => setGrace(e.currentTarget.value)}>
        {GRACE.map(([seconds, label]) => (
          <option key={seconds} value={String(seconds)}>
            {label}
          </option>
        ))}
      </select>
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
          Roll key
        </button>
      </div>
    </form>
  );
}
