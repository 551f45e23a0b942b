/** A one-line progress report: a bar on a terminal (rewritten in place), else a line every 10 %. */
export interface ProgressBar {
  update(done: number, total: number, detail: string): void;
  /** Clears the terminal line, so that what follows starts on a fresh one. */
  end(): void;
}

const WIDTH = 24;

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

/**
 * `status` writes a line in place (a terminal); without one the bar prints through `line`, once
 * per tenth of the work, so that a log or CI output gets a few lines, not thousands.
 */
export function progressBar(
  label: string,
  status: ((text: string) => void) | undefined,
  line: (text: string) => void,
): ProgressBar {
  const started = performance.now();
  let firstDone: number | undefined;
  let shownAt = 0;
  let shownTenth = -1;
  return {
    update(done, total, detail) {
      firstDone ??= done; // a resumed job's earlier part took no time of this run
      const share = total > 0 ? Math.min(1, done / total) : 1;
      const seconds = (performance.now() - started) / 1000;
      const rate = (done - firstDone) / Math.max(seconds, 1e-3);
      const left = rate > 0 && share < 1 ? ` · ${clock((total - done) / rate)} left` : '';
      const percent = `${Math.floor(share * 100)}%`.padStart(4);
      if (status) {
        const now = performance.now();
        if (now - shownAt < 200 && share < 1) return;
        shownAt = now;
        const filled = Math.round(share * WIDTH);
        status(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${percent} · ${detail}${left}\u001b[K`);
        return;
      }
      const tenth = Math.floor(share * 10);
      if (tenth === shownTenth) return;
      shownTenth = tenth;
      line(`${label} ${percent} · ${detail}${left}`);
    },
    end() {
      status?.('\r\u001b[K');
    },
  };
}
