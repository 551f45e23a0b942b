import type { BenchRow } from './types.js';

/** A row of the printed table: a module's BenchRow, or the error of a module that failed. */
export interface TableRow {
  /** The benchmark module (`gateway`, `reader`, ...). */
  benchmark: string;
  /** What was measured (the BenchRow's name), or the failure. */
  measured: string;
  value: number | null;
  unit: string;
  baseline: number | null;
  ratio: number | null;
  error?: string;
}

export const tableRow = (benchmark: string, row: BenchRow): TableRow => ({
  benchmark,
  measured: row.name,
  value: finite(row.value),
  unit: row.unit,
  baseline: finite(row.baseline),
  ratio: finite(row.ratio),
});

export const errorRow = (benchmark: string, error: string): TableRow => ({
  benchmark,
  measured: `FAILED: ${error}`,
  value: null,
  unit: '',
  baseline: null,
  ratio: null,
  error,
});

function finite(n: unknown): number | null {
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** A figure with at most 4 significant digits after the point and thousands kept readable. */
export function formatNumber(n: number | null): string {
  if (n === null) return '-';
  if (n === 0) return '0';
  const abs = Math.abs(n);
  if (abs >= 1000) return Math.round(n).toLocaleString('en-US');
  if (abs >= 100) return n.toFixed(1).replace(/\.0$/, '');
  if (abs >= 1) return String(Number(n.toFixed(3)));
  return String(Number(n.toPrecision(3)));
}

/** Splits text into lines of at most `width` characters, at spaces where possible. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (word === '') continue;
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
    while (line.length > width) {
      lines.push(line.slice(0, width));
      line = line.slice(width);
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

const MEASURED_WIDTH = 64;

/** The one table `npm run bench` prints: benchmark, what was measured, figure + unit, baseline, ratio. */
export function formatTable(rows: readonly TableRow[]): string {
  const header = ['benchmark', 'measured', 'figure', 'baseline', 'ratio'];
  const cells = rows.map((r) => [
    [r.benchmark],
    wrap(r.measured, MEASURED_WIDTH),
    [r.value === null ? '-' : `${formatNumber(r.value)} ${r.unit}`.trim()],
    [r.baseline === null ? '-' : `${formatNumber(r.baseline)} ${r.unit}`.trim()],
    [r.ratio === null ? '-' : formatNumber(r.ratio)],
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.flatMap((row) => row[i]!.map((l) => l.length))));
  // Figures are right-aligned, text left-aligned.
  const right = [false, false, true, true, true];
  const pad = (text: string, i: number) => (right[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const line = (parts: string[]) => `| ${parts.map(pad).join(' | ')} |`;
  const out = [rule, line(header), rule];
  for (const row of cells) {
    const height = Math.max(...row.map((c) => c.length));
    for (let k = 0; k < height; k++) out.push(line(row.map((c) => c[k] ?? '')));
  }
  out.push(rule);
  return out.join('\n');
}
