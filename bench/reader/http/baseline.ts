/**
 * The baseline of the reader's HTTP benchmark: Mozilla Readability on linkedom called in-process, on
 * the one thread of a bare node:http server (no auth, no validation, no limits, no usage record):
 * `POST /read {url}` fetches the page with undici, parses it, extracts the article and answers
 * `{title, content}` (Readability's article HTML, its own output). `GET /health` answers at once,
 * when the thread is free to.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readability } from '@mozilla/readability';
import { Agent, request } from 'undici';
import { parseHTML } from '#linkedom';
import { serveParent } from '../../gateway/ipc.js';

type ReadabilityDocument = ConstructorParameters<typeof Readability>[0];
const agent = new Agent({ keepAliveTimeout: 4_000 });

async function read(url: string): Promise<{ title: string; content: string }> {
  const response = await request(url, { dispatcher: agent });
  const html = await response.body.text();
  const { document } = parseHTML(html);
  const article = new Readability(document as unknown as ReadabilityDocument).parse();
  return { title: article?.title ?? '', content: article?.content ?? '' };
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  let body = '';
  req.on('data', (chunk: Buffer) => {
    body += chunk.toString();
  });
  req.on('end', () => {
    read((JSON.parse(body) as { url: string }).url).then(
      (result) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result)),
      (err: unknown) => res.writeHead(502).end(String(err)),
    );
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

serveParent(
  {
    rss: () => process.memoryUsage().rss,
    /** CPU time of the whole process (every thread), µs. */
    cpu: () => {
      const { user, system } = process.cpuUsage();
      return user + system;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  },
  { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
);
