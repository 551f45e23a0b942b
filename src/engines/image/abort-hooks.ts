/**
 * Runs `cancel` when the signal aborts while `work` runs (tell the backend to stop the job), and
 * waits for it briefly so the backend hears it before the caller moves on; a failing cancel is
 * logged by the caller's `cancel`, never thrown over the abort.
 */

import type { CancelSignal } from '../../util/cancel-signal.js';
export async function withCancel<T>(
  signal: CancelSignal,
  cancel: () => Promise<void>,
  work: () => Promise<T>,
): Promise<T> {
  let cancelling: Promise<void> | undefined;
  const onAbort = () => {
    cancelling = cancel().catch(() => undefined);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await work();
  } catch (err) {
    if (cancelling) await Promise.race([cancelling, new Promise((r) => setTimeout(r, 2_000).unref())]);
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
