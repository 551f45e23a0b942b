import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Serves one GGUF the way a model host would, under test control: the first request is refused
 * (a failed download), then ranged downloads send half the file and wait for `release()`.
 */
export interface ModelServer {
  url: string;
  /** Requests seen, as `METHOD range`. */
  requests: string[];
  release(): void;
  close(): Promise<void>;
}

export async function startModelServer(file: string, name = 'tiny.gguf'): Promise<ModelServer> {
  const bytes = await readFile(file);
  const requests: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.headers.range ?? '-'}`);
    if (requests.length === 1) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('not yet');
      return;
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range?.[2] ? Number(range[2]) + 1 : bytes.length;
    const body = bytes.subarray(start, end);
    res.writeHead(range ? 206 : 200, {
      'content-type': 'application/octet-stream',
      'content-length': body.length,
      'accept-ranges': 'bytes',
      ...(range ? { 'content-range': `bytes ${start}-${end - 1}/${bytes.length}` } : {}),
    });
    if (req.method === 'HEAD' || !range) {
      // The downloader's size probe: answered at once.
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    const half = Math.floor(body.length / 2);
    res.write(body.subarray(0, half));
    void released.then(() => res.end(body.subarray(half)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/models/${name}`,
    requests,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
