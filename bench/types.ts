/** One line of the benchmark table (docs/benchmarks.md): a figure and the baseline measured in the same run. */
export interface BenchRow {
  /** What was measured, and against what. */
  name: string;
  value: number;
  unit: string;
  /** The baseline's figure, in the same unit. */
  baseline: number;
  /** value / baseline, unless the row says otherwise. */
  ratio: number;
}

/** What every benchmark module exports. */
export interface BenchModule {
  run(): Promise<BenchRow[]>;
}

/** value / baseline rounded to 3 decimals; 0 when there is no baseline. */
export const ratioOf = (value: number, baseline: number): number =>
  baseline === 0 ? 0 : Math.round((value / baseline) * 1000) / 1000;

/** A row with value and baseline rounded to `digits` decimals and the ratio of the unrounded figures. */
export function benchRow(name: string, value: number, unit: string, baseline: number, digits = 3): BenchRow {
  const round = (n: number) => Number(n.toFixed(digits));
  return { name, value: round(value), unit, baseline: round(baseline), ratio: ratioOf(value, baseline) };
}
