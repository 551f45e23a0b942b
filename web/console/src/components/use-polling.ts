import { useEffect, useRef } from 'preact/hooks';

/**
 * Calls `load` now and every `ms` while the page is shown and the tab visible; the next call waits
 * for the last one, so a slow server is never asked twice at once.
 */
export function usePolling(load: () => Promise<unknown>, ms: number, deps: unknown[] = []): void {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      if (!document.hidden) await latest.current().catch(() => undefined);
      if (!stopped) timer = setTimeout(tick, ms);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, deps);
}
