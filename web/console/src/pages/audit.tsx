import { useEffect, useState } from 'preact/hooks';
import { type Account, type AuditFilter, type AuditRecord, api } from '../api';
import { Changes } from './audit/changes';

const PAGE = 50;

/** Actions the log records, offered as suggestions; a `*` at the end matches every action so begun. */
const ACTIONS = [
  'key.*',
  'key.create',
  'key.update',
  'key.roll',
  'key.revoke',
  'account.*',
  'account.create',
  'account.disable',
  'account.policy',
  'account.password_change',
  'session.*',
  'session.sign_in',
  'session.sign_in_failed',
  'balance.*',
  'budget.set',
  'codes.create',
  'code.redeem',
  'price.*',
  'search.*',
];

interface Fields {
  actor: string;
  action: string;
  since: string;
  until: string;
}
const EMPTY: Fields = { actor: '', action: '', since: '', until: '' };

/** A `datetime-local` value, read as UTC: the page shows every time in UTC. */
const utc = (local: string): string | undefined => (local ? `${local}${local.length === 16 ? ':00' : ''}Z` : undefined);

const filterOf = (f: Fields): AuditFilter => {
  const filter: AuditFilter = {};
  if (f.actor.trim()) filter.actor = f.actor.trim();
  if (f.action.trim()) filter.action = f.action.trim();
  const since = utc(f.since);
  const until = utc(f.until);
  if (since) filter.since = since;
  if (until) filter.until = until;
  return filter;
};

/** The admin's view of the audit log: every administrative act, newest first, filtered, a page at a time. */
export function AuditPage() {
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [filter, setFilter] = useState<AuditFilter>({});
  const [records, setRecords] = useState<AuditRecord[] | undefined>();
  const [more, setMore] = useState(false);
  const [error, setError] = useState('');
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const [accounts, setAccounts] = useState<Account[]>([]);

  // One record more than a page says whether there is an older page.
  const fetchPage = (f: AuditFilter, before?: number) =>
    api.audit(f, PAGE + 1, before).then((data) => ({ rows: data.slice(0, PAGE), more: data.length > PAGE }));

  useEffect(() => {
    setError('');
    fetchPage(filter)
      .then((page) => {
        setRecords(page.rows);
        setMore(page.more);
      })
      .catch((e: Error) => setError(e.message));
  }, [filter]);

  useEffect(() => {
    api
      .accounts()
      .then((list) => {
        setAccounts(list);
        setNames(new Map(list.map((a) => [`account:${a.id}`, a.name])));
      })
      .catch(() => {});
  }, []);

  const older = async () => {
    const last = records?.at(-1);
    if (!last) return;
    try {
      const page = await fetchPage(filter, last.id);
      setRecords([...(records ?? []), ...page.rows]);
      setMore(page.more);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const set = (name: keyof Fields) => (e: Event) =>
    setFields({ ...fields, [name]: (e.currentTarget as HTMLInputElement).value });

  const apply = (e: Event) => {
    e.preventDefault();
    setError('');
    const next = filterOf(fields);
    if (next.since && next.until && next.since >= next.until) {
      setError('“From” must be earlier than “To”.');
      return;
    }
    setFilter(next);
  };

  const clear = () => {
    setFields(EMPTY);
    setFilter({});
  };

  const filtered = Object.keys(filter).length > 0;
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title" tabIndex={-1}>
        Audit log
      </h1>
      <p class="muted">
        Every administrative act, newest first: who did it, from which address, and what changed. Times are UTC.
      </p>
      <form class="card" aria-label="Filter the audit log" onSubmit={apply} noValidate>
        <div class="grid4">
          <div>
            <label for="audit-actor">Actor</label>
            <input
              id="audit-actor"
              list="audit-actors"
              placeholder="key:admin, account:…"
              value={fields.actor}
              onInput={set('actor')}
            />
            <datalist id="audit-actors">
              <option value="key:admin">Admin</option>
              {accounts.map((a) => (
                <option key={a.id} value={`account:${a.id}`}>
                  {a.name}
                </option>
              ))}
            </datalist>
          </div>
          <div>
            <label for="audit-action">Action</label>
            <input
              id="audit-action"
              list="audit-actions"
              placeholder="key.* or key.create"
              value={fields.action}
              onInput={set('action')}
            />
            <datalist id="audit-actions">
              {ACTIONS.map((a) => (
                <option key={a} value={a} />
              ))}
            </datalist>
          </div>
          <div>
            <label for="audit-since">From (UTC)</label>
            <input id="audit-since" type="datetime-local" value={fields.since} onInput={set('since')} />
          </div>
          <div>
            <label for="audit-until">To (UTC)</label>
            <input id="audit-until" type="datetime-local" value={fields.until} onInput={set('until')} />
          </div>
        </div>
        <div class="actions">
          <button type="button" onClick={clear}>
            Clear
          </button>
          <button type="submit" class="primary">
            Filter
          </button>
        </div>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="sr-only" role="status">
        {records ? `${records.length}${more ? ' or more' : ''} records` : ''}
      </p>
      {records && records.length === 0 && <p>{filtered ? 'No records match these filters.' : 'No records yet.'}</p>}
      {records && records.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Audit records, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time (UTC)</th>
                <th scope="col">Actor</th>
                <th scope="col">Address</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {records.map((r) => (
                <tr key={r.id}>
                  <td data-label="Time" class="audit-time">
                    {r.at.slice(0, 19).replace('T', ' ')}
                  </td>
                  <td data-label="Actor" class="audit-id">
                    <code>{r.actor}</code>
                    {names.has(r.actor) && <span class="small-note muted">{names.get(r.actor)}</span>}
                  </td>
                  <td data-label="Address" class="audit-id">
                    {r.address ?? '—'}
                  </td>
                  <td data-label="Action">
                    <code>{r.action}</code>
                  </td>
                  <td data-label="Target" class="audit-id">
                    {r.target ? <code>{r.target}</code> : '—'}
                    {r.target && names.has(r.target) && <span class="small-note muted">{names.get(r.target)}</span>}
                  </td>
                  <td data-label="Change">
                    <Changes before={r.before} after={r.after} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {more && (
        <button type="button" onClick={older}>
          Older records
        </button>
      )}
    </section>
  );
}
