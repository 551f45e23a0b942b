import type { ConsoleKey, KeySpend } from '../../api';
import { formatTime } from '../../api';
import { budgetText } from '../billing/budget-form';
import { accessLines, isExpired } from './policy-fields';

export const limitsText = (k: ConsoleKey): string => {
  if (!k.limits) return 'default';
  const parts = [];
  if (k.limits.concurrent) parts.push(`${k.limits.concurrent} concurrent`);
  if (k.limits.requests_per_minute) parts.push(`${k.limits.requests_per_minute}/min`);
  for (const w of k.limits.windows) parts.push(`${w.requests}/${w.hours}h`);
  return parts.join(', ') || 'none';
};

/** Today / this month / in all, as `0.12 / 3.40 / 20.00`. */
const spendText = (s: KeySpend | undefined): string =>
  s ? `${s.spent.day} / ${s.spent.month} / ${s.spent.total}` : '—';

export type KeyAction = 'edit' | 'roll' | 'revoke' | 'budget';

/** One key of the table: what it is, who may use it and how, what it spent, and what can be done to it. */
export function KeyRow(props: {
  k: ConsoleKey;
  isAdmin: boolean;
  holder: string;
  spend: KeySpend | undefined;
  onAction: (action: KeyAction, k: ConsoleKey) => void;
}) {
  const { k, isAdmin, spend, onAction } = props;
  const active = k.status === 'active';
  const status = active && isExpired(k) ? 'expired' : k.status;
  const previousUntil = active && k.previous_secret_until !== null && k.previous_secret_until * 1000 > Date.now();
  return (
    <tr class={status}>
      <th scope="row" data-label="Name">
        {k.name}
        {k.role === 'admin' && <span class="badge">admin</span>}
        <code class="key-id">{k.id}</code>
        {k.description && <span class="small-note muted key-description">{k.description}</span>}
      </th>
      {isAdmin && <td data-label="Holder">{props.holder}</td>}
      <td data-label="Endpoints">{k.endpoints.join(', ') || '—'}</td>
      <td data-label="Access" class="access-cell">
        {accessLines(k).map((line) => (
          <span key={line} class="small-note">
            {line}
          </span>
        ))}
      </td>
      <td data-label="Limits">{limitsText(k)}</td>
      <td data-label="Created">{formatTime(k.created_at)}</td>
      <td data-label="Last used">{formatTime(k.last_used_at)}</td>
      <td data-label="Spend today / month / total" class="num spend-cell">
        {spendText(spend)}
      </td>
      <td data-label="Budget">
        {budgetText(spend?.budget ?? null)}
        {isAdmin && active && (
          <button
            type="button"
            class="link"
            aria-label={`Set the budget of ${k.name}`}
            onClick={() => onAction('budget', k)}
          >
            Set
          </button>
        )}
      </td>
      <td data-label="Status">
        <span class={`status ${status}`}>{status}</span>
        {previousUntil && (
          <span class="status-note muted">old secret until {formatTime(k.previous_secret_until)} UTC</span>
        )}
      </td>
      <td>
        {active && (
          <div class="row-buttons">
            <button type="button" class="small" aria-label={`Change ${k.name}`} onClick={() => onAction('edit', k)}>
              Change
            </button>
            <button type="button" class="small" aria-label={`Roll ${k.name}`} onClick={() => onAction('roll', k)}>
              Roll
            </button>
            <button
              type="button"
              class="danger small"
              aria-label={`Revoke ${k.name}`}
              onClick={() => onAction('revoke', k)}
            >
              Revoke
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}
