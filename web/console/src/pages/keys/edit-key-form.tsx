import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type ConsoleKey } from '../../api';
import { changeOf, draftOf, PolicyFields } from './policy-fields';

/** Changes a key's name, models, expiry, allowed addresses and description; its secret stays. */
export function EditKeyForm(props: { keyView: ConsoleKey; onSaved: (k: ConsoleKey) => void; onCancel: () => void }) {
  const k = props.keyView;
  const [name, setName] = useState(k.name);
  const [draft, setDraft] = useState(draftOf(k));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!name.trim()) return setError('Give the key a name.');
    setBusy(true);
    setError('');
    try {
      props.onSaved(await api.updateKey(k.id, { name: name.trim(), ...changeOf(draft) }));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="edit-key-title" noValidate>
      <h2 id="edit-key-title">Change {k.name}</h2>
      <label for="edit-name">Name</label>
      <input id="edit-name" ref={first} value={name} maxLength={128} onInput={(e) => setName(e.currentTarget.value)} />
      <PolicyFields prefix="edit" draft={draft} onChange={setDraft} />
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
          Save changes
        </button>
      </div>
    </form>
  );
}
