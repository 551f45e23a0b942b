/** One field an act changed: its value before and after (undefined where the record has none). */
export interface Change {
  field: string;
  before?: string | undefined;
  after?: string | undefined;
}

const SHOWN = 4;
const LONGEST = 80;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value in a few characters: lists joined, nothing as `none`, anything long cut short. */
export function valueText(v: unknown): string {
  if (v === null || v === undefined) return 'none';
  if (v === '') return 'empty';
  if (Array.isArray(v)) return v.length === 0 ? 'none' : v.map(valueText).join(', ');
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > LONGEST ? `${text.slice(0, LONGEST - 1)}…` : text;
}

/**
 * What an act changed, field by field: the fields whose values differ when it has a before and an
 * after, every field of the one it has otherwise (what was created, or what was removed).
 */
export function changesOf(before: unknown, after: unknown): Change[] {
  const none = (v: unknown) => v === null || v === undefined;
  if (none(before) && none(after)) return [];
  if (!isObject(before) && !isObject(after)) {
    return [{ field: '', before: none(before) ? undefined : valueText(before), after: valueText(after) }];
  }
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const changes: Change[] = [];
  for (const field of fields) {
    if (JSON.stringify(a[field]) === JSON.stringify(b[field])) continue;
    changes.push({
      field,
      before: isObject(before) && field in b ? valueText(b[field]) : undefined,
      after: isObject(after) && field in a ? valueText(a[field]) : undefined,
    });
  }
  return changes;
}

function ChangeLine({ c }: { c: Change }) {
  return (
    <li>
      {c.field && <span class="change-field">{c.field}: </span>}
      {c.before !== undefined && <del>{c.before}</del>}
      {c.before !== undefined && c.after !== undefined && (
        <>
          <span aria-hidden="true"> → </span>
          <span class="sr-only"> changed to </span>
        </>
      )}
      {c.after !== undefined && <ins>{c.after}</ins>}
    </li>
  );
}

/** The changes of one record: the first few, the rest behind a disclosure so that rows stay short. */
export function Changes({ before, after }: { before: unknown; after: unknown }) {
  const changes = changesOf(before, after);
  if (changes.length === 0) return <span class="muted">—</span>;
  const rest = changes.slice(SHOWN);
  return (
    <div class="changes">
      <ul>
        {changes.slice(0, SHOWN).map((c) => (
          <ChangeLine key={c.field} c={c} />
        ))}
      </ul>
      {rest.length > 0 && (
        <details>
          <summary>{rest.length} more</summary>
          <ul>
            {rest.map((c) => (
              <ChangeLine key={c.field} c={c} />
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
