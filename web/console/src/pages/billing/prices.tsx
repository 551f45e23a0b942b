import { useEffect, useState } from 'preact/hooks';
import { api, type PriceFields, type PriceInfo } from '../../api';
import { isAmount } from './money';

const FIELDS = [
  ['input_per_million', 'Input per million tokens'],
  ['cached_input_per_million', 'Cached input per million'],
  ['output_per_million', 'Output per million tokens'],
  ['per_image', 'Per image'],
  ['per_call', 'Per call'],
] as const;
type Field = (typeof FIELDS)[number][0];

const byLines = (by: Record<string, string> | undefined) =>
  Object.entries(by ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');

/** Prices in force (configured, or edited here over the configuration), and the form that edits one. */
export function PricesPanel() {
  const [prices, setPrices] = useState<PriceInfo[]>([]);
  const [currency, setCurrency] = useState('');
  const [code, setCode] = useState('');
  const [values, setValues] = useState<Record<Field, string>>({
    input_per_million: '',
    cached_input_per_million: '',
    output_per_million: '',
    per_image: '',
    per_call: '',
  });
  const [imageBy, setImageBy] = useState('');
  const [error, setError] = useState('');
  const [done, setDone] = useState('');

  const load = () =>
    api
      .prices()
      .then((r) => {
        setPrices(r.data);
        setCurrency(r.currency);
      })
      .catch((e: Error) => setError(e.message));
  useEffect(() => {
    load();
  }, []);

  const edit = (p: PriceInfo) => {
    setCode(p.code);
    const price = p.price ?? {};
    setValues(
      Object.fromEntries(FIELDS.map(([f]) => [f, (price[f] as string | undefined) ?? ''])) as Record<Field, string>,
    );
    setImageBy(byLines(price.per_image_by));
    document.getElementById('price-code')?.focus();
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    setError('');
    setDone('');
    if (!code.trim()) return setError('Give the model code or operation to price.');
    const price: PriceFields = {};
    for (const [field, label] of FIELDS) {
      const value = values[field].trim();
      if (value === '') continue;
      if (!isAmount(value)) return setError(`${label}: give a decimal such as 0.50 (at most 6 decimals).`);
      price[field] = value;
    }
    const by: Record<string, string> = {};
    for (const line of imageBy
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)) {
      const [key, value] = line.split('=').map((s) => s.trim());
      if (!key || !value || !isAmount(value))
        return setError(`Per image by size: "${line}" is not "<size> <quality>=<price>".`);
      by[key] = value;
    }
    if (Object.keys(by).length > 0) price.per_image_by = by;
    try {
      await api.setPrice(code.trim(), price);
      setDone(Object.keys(price).length === 0 ? `${code} is free now.` : `Price of ${code} saved.`);
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const reset = async (p: PriceInfo) => {
    try {
      await api.resetPrice(p.code);
      setDone(`${p.code}: the configured price is in force again.`);
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const cell = (p: PriceInfo, f: Field) => p.price?.[f] ?? '—';
  return (
    <>
      <h2 id="prices-title">Prices ({currency})</h2>
      {prices.length === 0 && <p>Nothing is priced: every call is free and needs no balance.</p>}
      {prices.length > 0 && (
        <div class="table-wrap">
          <table aria-labelledby="prices-title">
            <thead>
              <tr>
                <th scope="col">Code</th>
                {FIELDS.map(([f, label]) => (
                  <th key={f} scope="col" class="num">
                    {label}
                  </th>
                ))}
                <th scope="col">Source</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {prices.map((p) => (
                <tr key={p.code}>
                  <th scope="row" data-label="Code">
                    <code>{p.code}</code>
                  </th>
                  {FIELDS.map(([f, label]) => (
                    <td key={f} data-label={label} class="num">
                      {cell(p, f)}
                    </td>
                  ))}
                  <td data-label="Source">{p.price === null ? 'free (edited)' : p.source}</td>
                  <td>
                    <div class="row">
                      <button
                        type="button"
                        class="small"
                        aria-label={`Edit the price of ${p.code}`}
                        onClick={() => edit(p)}
                      >
                        Edit
                      </button>
                      {p.source === 'edited' && (
                        <button
                          type="button"
                          class="small"
                          aria-label={`Reset the price of ${p.code}`}
                          onClick={() => reset(p)}
                        >
                          Reset
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form class="card" onSubmit={submit} aria-labelledby="price-form-title" noValidate>
        <h2 id="price-form-title">Set a price</h2>
        <label for="price-code">Model code or operation</label>
        <input
          id="price-code"
          list="price-codes"
          placeholder="gen-4.6, web_search, reader…"
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
        />
        <datalist id="price-codes">
          {prices.map((p) => (
            <option key={p.code} value={p.code} />
          ))}
        </datalist>
        <div class="grid3">
          {FIELDS.map(([f, label]) => (
            <div key={f}>
              <label for={`price-${f}`}>{label}</label>
              <input
                id={`price-${f}`}
                inputMode="decimal"
                value={values[f]}
                onInput={(e) => setValues({ ...values, [f]: e.currentTarget.value })}
              />
            </div>
          ))}
        </div>
        <label for="price-image-by">Per image by size and quality (one "1024x1024 hd=0.40" a line)</label>
        <textarea id="price-image-by" rows={2} value={imageBy} onInput={(e) => setImageBy(e.currentTarget.value)} />
        <p class="muted small-note">
          Empty fields cost nothing; all empty makes the code free. A change applies to calls that start after it.
        </p>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <p class="muted" role="status">
          {done}
        </p>
        <div class="actions">
          <button type="submit" class="primary">
            Save price
          </button>
        </div>
      </form>
    </>
  );
}
