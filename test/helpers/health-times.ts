import http from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

export interface HealthTimes {
  /** How long each `/health` took, in ms. */
  times: number[];
  /** The longest the event loop was held meanwhile, in ms. */
  maxLoopDelay: number;
}

/**
 * `/health` asked every 10 ms on its own connection (opened before timing starts) while `work`
 * runs, from the server's own process: an answer is as late as the event loop is held.
 */
export async function healthTimes(base: string, work: () => Promise<void>): Promise<HealthTimes> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ask = () =>
    new Promise<number>((resolve, reject) => {
      const start = performance.now();
      http
        .get(new URL('/health', base), { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(performance.now() - start));
        })
        .on('error', reject);
    });
  await ask();
  let done = false;
  const times: number[] = [];
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const probe = (async () => {
    while (!done) {
      times.push(await ask());
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  try {
    await work();
  } finally {
    done = true;
    await probe;
    delay.disable();
    agent.destroy();
  }
  return { times, maxLoopDelay: delay.max / 1e6 };
}

/** The 95th percentile and the slowest of `times`. */
export function percentiles(times: number[]): { p95: number; max: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0, max: sorted.at(-1) ?? 0 };
}
