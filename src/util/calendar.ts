/**
 * The calendar day and month of a moment in a time zone (`billing.time_zone`), for per-day and
 * per-month budgets: `{ day: '2026-03-01', month: '2026-03' }`. A zone's offset changes only on
 * quarter hours, so the answer is kept per quarter hour and most calls cost a map lookup.
 */
export interface CalendarPeriods {
  day: string;
  month: string;
}

const QUARTER_HOUR_MS = 15 * 60_000;

export class Calendar {
  private readonly format: Intl.DateTimeFormat | undefined;
  private lastQuarter = Number.NaN;
  private last: CalendarPeriods = { day: '', month: '' };

  /** Throws a RangeError naming the zone when the runtime does not know it. */
  constructor(readonly zone: string) {
    this.format =
      zone === 'UTC'
        ? undefined
        : new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
  }

  periodsOf(at: number): CalendarPeriods {
    const quarter = Math.floor(at / QUARTER_HOUR_MS);
    if (quarter === this.lastQuarter) return this.last;
    const day = this.format ? this.localDay(at) : new Date(at).toISOString().slice(0, 10);
    this.lastQuarter = quarter;
    this.last = { day, month: day.slice(0, 7) };
    return this.last;
  }

  /** The start of the local day that holds `at`, as Unix ms (for "today" in the console). */
  dayStart(at: number): number {
    const { day } = this.periodsOf(at);
    // The local midnight is within a day of UTC midnight of the same date: search the offsets.
    const utcMidnight = Date.parse(`${day}T00:00:00Z`);
    for (let offset = -14 * 60; offset <= 14 * 60; offset += 15) {
      const candidate = utcMidnight - offset * 60_000;
      if (this.periodsOf(candidate).day === day && this.periodsOf(candidate - 1).day !== day) return candidate;
    }
    return utcMidnight;
  }

  private localDay(at: number): string {
    const parts = this.format!.formatToParts(at);
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return `${get('year')}-${get('month')}-${get('day')}`;
  }
}

/** Why a zone name is not usable, or undefined. */
export function timeZoneProblem(zone: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: zone });
    return undefined;
  } catch {
    return `unknown time zone "${zone}" (an IANA name such as UTC, Europe/Berlin or Asia/Shanghai)`;
  }
}
