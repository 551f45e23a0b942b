/**
 * The V8 heap a server process keeps after a full collection, read through the inspector of a
 * process started with `--inspect=127.0.0.1:0`: the one memory figure that a leak raises and a
 * collection's timing does not.
 */
import { WebSocket } from 'undici';

/** The inspector's WebSocket URL, from what the process printed on start. */
export function inspectorUrl(output: string): string {
  const m = /Debugger listening on (ws:\/\/\S+)/.exec(output);
  if (!m) throw new Error('the process was not started with --inspect');
  return m[1]!;
}

export async function heapAfterGcMb(url: string): Promise<number> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error(`inspector ${url} unreachable`)), { once: true });
  });
  let id = 0;
  const pending = new Map<number, (result: unknown) => void>();
  ws.addEventListener('message', (event) => {
    const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result);
  });
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const n = ++id;
      pending.set(n, resolve);
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  try {
    await call('HeapProfiler.collectGarbage');
    const result = (await call('Runtime.evaluate', {
      expression: 'process.memoryUsage().heapUsed',
      returnByValue: true,
    })) as { result: { value: number } };
    return result.result.value / 2 ** 20;
  } finally {
    ws.close();
  }
}
