import { useEffect, useRef, useState } from 'preact/hooks';
import { type AccountPolicy, api, type LimitWindow } from '../../api';

const NUMBERS = [
  ['concurrent', 'Concurrent requests'],
  ['requests_per_minute', 'Requests per minute'],
  ['max_keys', 'Active keys at most'],
] as const;
type NumberField = (typeof NUMBERS)[number][0];

/** Windows as the form shows them: `5000/5h, 40000/168h`. */
const windowsText = (windows: LimitWindow[]): string => windows.map((w) => `${w.requests}/${w.hours}h`).join(', ');

/** `5000/5h, 40000/168h` as windows; undefined when a part is not `N/Hh`. */
function parseWindows(text: string): LimitWindow[] | undefined {
  const windows: LimitWindow[] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*h$/i.exec(part);
    if (!m || Number(m[1]) < 1 || Number(m[2]) <= 0) return undefined;
    windows.push({ requests: Number(m[1]), hours: Number(m[2]) });
  }
  return windows;
}

/** What an account's keys share, in a few words: `2 concurrent · 30/min · 1 of 5 keys · gen-4.6`. */
export function policyText(p: AccountPolicy): string {
  const e = p.effective;
  return [
    e.concurrent ? `${e.concurrent} concurrent` : 'any concurrency',
    e.requests_per_minute ? `${e.requests_per_minute}/min` : 'no per-minute limit',
    `${p.active_keys} of ${e.max_keys || 'any number of'} keys`,
    e.models.length ? `models ${e.models.join(', ')}` : 'all models',
    ...(e.windows.length ? [`windows ${windowsText(e.windows)}`] : []),
  ].join(' · ');
}

/**
 * The admin's form for what every key of an account shares: limits, key cap, models. An empty field
 * is the server's default (shown as its placeholder); 0 is no limit.
 */
export function AccountPolicyForm(props: {
  name: string;
  policy: AccountPolicy;
  onSaved: (p: AccountPolicy) => void;
  onCancel: () => void;
}) {
  const { own, effective } = props.policy;
  const [values, setValues] = useState<Record<NumberField, string>>({
    concurrent: own.concurrent === null ? '' : String(own.concurrent),
    requests_per_minute: own.requests_per_minute === null ? '' : String(own.requests_per_minute),
    max_keys: own.max_keys === null ? '' : String(own.max_keys),
  });
  const [models, setModels] = useState(own.models.join(', '));
  const [windows, setWindows] = useState(own.windows === null ? '' : windowsText(own.windows));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  // The default is what is in effect while the account has no value of its own.
  const defaultOf = (field: NumberField) => (own[field] === null ? effective[field] : undefined);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError('');
    const change = { concurrent: null, requests_per_minute: null, max_keys: null } as Record<
      NumberField,
      number | null
    >;
    for (const [field, label] of NUMBERS) {
      const v = values[field].trim();
      if (v === '') continue;
      if (!/^\d+$/.test(v)) return setError(`${label}: give a whole number (0 = no limit), or leave it empty.`);
      change[field] = Number(v);
    }
    const shared = windows.trim() === '' ? null : parseWindows(windows);
    if (shared === undefined)
      return setError('Usage windows: give requests/hours, e.g. 5000/5h, 40000/168h, or leave it empty.');
    const list = models
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    setBusy(true);
    try {
      props.onSaved(await api.setAccountPolicy(props.policy.account_id, { ...change, models: list, windows: shared }));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="policy-title" noValidate>
      <h2 id="policy-title">What the keys of {props.name} share</h2>
      <p class="muted">
        Every key of the account counts against these together, on top of its own limits; a key may only narrow the
        models. Empty: the server's default. 0: no limit.
      </p>
      <div class="grid3">
        {NUMBERS.map(([field, label], i) => (
          <div key={field}>
            <label for={`policy-${field}`}>{label}</label>
            <input
              id={`policy-${field}`}
              ref={i === 0 ? first : null}
              type="number"
              min="0"
              inputMode="numeric"
              placeholder={defaultOf(field) === undefined ? 'default' : `default: ${defaultOf(field) || 'no limit'}`}
              value={values[field]}
              onInput={(e) => setValues({ ...values, [field]: e.currentTarget.value })}
            />
          </div>
        ))}
      </div>
      <label for="policy-models">Models</label>
      <input
        id="policy-models"
        placeholder="all models"
        aria-describedby="policy-models-hint"
        value={models}
        onInput={(e) => setModels(e.currentTarget.value)}
        spellcheck={false}
      />
      <span id="policy-models-hint" class="small-note muted">
        Codes or patterns, comma-separated: gen-4.6, gen-4.5*
      </span>
      <label for="policy-windows">Usage windows</label>
      <input
        id="policy-windows"
        placeholder={
          effective.windows.length && own.windows === null ? `default: ${windowsText(effective.windows)}` : 'default'
        }
        aria-describedby="policy-windows-hint"
        value={windows}
        onInput={(e) => setWindows(e.currentTarget.value)}
        spellcheck={false}
      />
      <span id="policy-windows-hint" class="small-note muted">
        Requests per hours, filled by all its keys together, comma-separated: 5000/5h, 40000/168h
      </span>
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
          Save
        </button>
      </div>
    </form>
  );
}
