import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type BudgetLimits } from '../../api';
import { isAmount } from './money';

const KINDS = [
  ['daily', 'Per day'],
  ['monthly', 'Per month'],
  ['total', 'In all'],
] as const;

/** The admin's budget of a key or an account: per day, per month and in all; an empty field is no limit. */
export function BudgetForm(props: {
  kind: 'keys' | 'accounts';
  id: string;
  name: string;
  current: BudgetLimits | null;
  currency: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<Record<keyof BudgetLimits, string>>({
    daily: props.current?.daily ?? '',
    monthly: props.current?.monthly ?? '',
    total: props.current?.total ?? '',
  });
  const [error, setError] = useState('');
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError('');
    const budget: BudgetLimits = { daily: null, monthly: null, total: null };
    for (const [k, label] of KINDS) {
      const v = values[k].trim();
      if (v === '') continue;
      if (!isAmount(v)) return setError(`${label}: give a decimal such as 10.00, or leave it empty for no limit.`);
      budget[k] = v;
    }
    try {
      await api.setBudget(props.kind, props.id, budget);
      props.onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-labelledby="budget-title" noValidate>
      <h2 id="budget-title">Budget of {props.name}</h2>
      <div class="grid3">
        {KINDS.map(([k, label], i) => (
          <div key={k}>
            <label for={`budget-${k}`}>
              {label} ({props.currency})
            </label>
            <input
              id={`budget-${k}`}
              ref={i === 0 ? first : null}
              inputMode="decimal"
              placeholder="no limit"
              value={values[k]}
              onInput={(e) => setValues({ ...values, [k]: e.currentTarget.value })}
            />
          </div>
        ))}
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" class="primary">
          Save budget
        </button>
      </div>
    </form>
  );
}

/** A budget in a few words: `5.00/day · 100.00/month`, or `none`. */
export const budgetText = (b: BudgetLimits | null): string => {
  if (!b) return 'none';
  const parts = [b.daily && `${b.daily}/day`, b.monthly && `${b.monthly}/month`, b.total && `${b.total} in all`];
  return parts.filter(Boolean).join(' · ') || 'none';
};
