import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: number[];
}

const PALETTE = ['#2563eb', '#db2777', '#16a34a', '#ea580c', '#7c3aed', '#0891b2', '#ca8a04', '#dc2626'];
/** The colour of the i-th series: the palette repeats. */
const colour = (i: number): string => PALETTE[i % PALETTE.length] ?? '#888';

// Whole-number steps for the y axis: counts of requests and tokens have no halves.
const WHOLE_STEPS = Array.from({ length: 10 }, (_, e) => [1, 2, 5].map((m) => m * 10 ** e)).flat();

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

/**
 * A bar-ish line chart of one figure per day and series (uPlot, bundled). The figures are also in
 * the page's table, so the canvas is described by its title and hidden from screen readers.
 */
export function Chart({
  title,
  days,
  series,
  fractional = false,
}: {
  title: string;
  days: number[];
  series: ChartSeries[];
  /** Figures with decimals (money): the y axis takes uPlot's own steps. */
  fractional?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const axis = { stroke: cssVar('--muted'), grid: { stroke: cssVar('--line') }, ticks: { stroke: cssVar('--line') } };
    const opts: uPlot.Options = {
      width: el.clientWidth || 600,
      height: 220,
      scales: { x: { time: true } },
      axes: [axis, fractional ? { ...axis, size: 60 } : { ...axis, size: 60, incrs: WHOLE_STEPS }],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: colour(i),
          fill: `${colour(i)}22`,
          width: 2,
          points: { show: true, size: 6 },
        })),
      ],
      legend: { live: false },
    };
    const plot = new uPlot(opts, [days, ...series.map((s) => s.values)], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series, fractional]);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} aria-hidden="true" />
    </figure>
  );
}
