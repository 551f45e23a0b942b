import type { ConsoleKey, KeyChange } from '../../api';
import { formatTime } from '../../api';

/** A key's allowlists, expiry and note as the form holds them: text, as typed. */
export interface PolicyDraft {
  models: string;
  /** `YYYY-MM-DDTHH:MM[:SS]` in UTC (a `datetime-local` field's value); empty = never. */
  expires: string;
  allowedIps: string;
  description: string;
}

export const emptyDraft: PolicyDraft = { models: '', expires: '', allowedIps: '', description: '' };

/** The form's text for a key's current policy. */
export function draftOf(k: ConsoleKey): PolicyDraft {
  const iso = k.expires_at === null ? '' : new Date(k.expires_at * 1000).toISOString();
  return {
    models: k.models.join(', '),
    // Whole minutes read as HH:MM; a time with seconds keeps them.
    expires: iso && (iso.slice(17, 19) === '00' ? iso.slice(0, 16) : iso.slice(0, 19)),
    allowedIps: k.allowed_ips.join(', '),
    description: k.description,
  };
}

const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** What the API takes; the server checks each entry and names the field it refuses. */
export function changeOf(d: PolicyDraft): Required<Omit<KeyChange, 'name'>> {
  const at = d.expires.trim();
  return {
    models: splitList(d.models),
    expires_at: at ? `${at}${at.length === 16 ? ':00' : ''}Z` : null,
    allowed_ips: splitList(d.allowedIps),
    description: d.description.trim(),
  };
}

/** Who may use a key, in a few words per line: models, expiry, addresses. */
export function accessLines(k: ConsoleKey): string[] {
  return [
    k.models.length ? `Models: ${k.models.join(', ')}` : 'All models',
    ...(k.expires_at === null ? [] : [`${isExpired(k) ? 'Expired' : 'Expires'} ${formatTime(k.expires_at)} UTC`]),
    ...(k.allowed_ips.length ? [`From ${k.allowed_ips.join(', ')}`] : []),
  ];
}

export const isExpired = (k: ConsoleKey, now = Date.now()): boolean =>
  k.expires_at !== null && k.expires_at * 1000 <= now;

/** The models, expiry, addresses and note of a key, shared by the create and edit forms. */
export function PolicyFields(props: { prefix: string; draft: PolicyDraft; onChange: (d: PolicyDraft) => void }) {
  const { prefix, draft, onChange } = props;
  const set = (field: keyof PolicyDraft) => (e: { currentTarget: { value: string } }) =>
    onChange({ ...draft, [field]: e.currentTarget.value });
  return (
    <>
      <div class="grid2">
        <div>
          <label for={`${prefix}-models`}>Models</label>
          <input
            id={`${prefix}-models`}
            placeholder="all models"
            aria-describedby={`${prefix}-models-hint`}
            value={draft.models}
            onInput={set('models')}
            spellcheck={false}
          />
          <span id={`${prefix}-models-hint`} class="small-note muted">
            Codes or patterns, comma-separated: gen-4.6, gen-4.5*
          </span>
        </div>
        <div>
          <label for={`${prefix}-expires`}>Expires (UTC)</label>
          <input
            id={`${prefix}-expires`}
            type="datetime-local"
            aria-describedby={`${prefix}-expires-hint`}
            value={draft.expires}
            onInput={set('expires')}
          />
          <span id={`${prefix}-expires-hint`} class="small-note muted">
            Empty: never. Refused from this second on.
          </span>
        </div>
      </div>
      <label for={`${prefix}-ips`}>Allowed addresses</label>
      <input
        id={`${prefix}-ips`}
        placeholder="anywhere"
        aria-describedby={`${prefix}-ips-hint`}
        value={draft.allowedIps}
        onInput={set('allowedIps')}
        spellcheck={false}
      />
      <span id={`${prefix}-ips-hint`} class="small-note muted">
        IPv4 or IPv6 addresses or CIDRs, comma-separated: 10.0.0.0/8, 2001:db8::/32
      </span>
      <label for={`${prefix}-description`}>Description</label>
      <textarea
        id={`${prefix}-description`}
        rows={2}
        maxLength={1000}
        value={draft.description}
        onInput={set('description')}
      />
    </>
  );
}
