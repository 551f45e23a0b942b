/** Small statistics shared by the gateway benchmarks. */

export interface Cpu {
  user: number;
  system: number;
}
/** µs of CPU (user + system) between two `process.cpuUsage()` readings. */
export const cpuMicros = (a: Cpu, b: Cpu) => b.user - a.user + (b.system - a.system);

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
export const quantile = (xs: number[], q: number) => {
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};
export const median = (xs: number[]) => quantile(xs, 0.5);
export const range = (xs: number[], digits = 0) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
