/**
 * An RFC 3339 timestamp: date, time and an offset (`Z` or `±hh:mm`). The offset is required, so a
 * time never depends on the time zone of the server that reads it.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Unix ms of an RFC 3339 timestamp; NaN for anything else (no offset, a bare date, an impossible date). */
export function parseRfc3339(value: string): number {
  const m = RFC3339.exec(value);
  if (!m) return Number.NaN;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // Date.parse rolls impossible fields over (Feb 31 → Mar 3, 24:00 → the next day) rather than refusing them.
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > days || hour > 23 || minute > 59 || second > 59) return Number.NaN;
  return Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ''}${m[8]!.toUpperCase()}`);
}
