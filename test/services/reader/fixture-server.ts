import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** A local server (127.0.0.1 only) serving the fixtures and the hostile responses the tests need. */

const FIXTURES = new URL('./fixtures/', import.meta.url);

const TYPES: Record<string, string> = {
  html: 'text/html',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
};

/** A one-page PDF written by hand (offsets computed), so no PDF tool is needed. */
export function makePdf(text: string, title: string): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Title (${title}) >>`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** Writes `total` bytes (or forever) in 64 KiB chunks, only as fast as the client reads. */
function stream(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => {
    sent = Number.POSITIVE_INFINITY;
  });
  pump();
}

export interface FixtureServer {
  origin: string;
  port: number;
  /** Requests received so far: a refused URL must not have reached the server at all. */
  requests(): number;
  close(): Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (path.startsWith('/fixtures/')) {
      const name = path.slice('/fixtures/'.length);
      // Legacy-encoded pages are stored as `.html.bin` so that tools expecting UTF-8 leave them alone.
      const ext =
        name
          .replace(/\.bin$/, '')
          .split('.')
          .pop() ?? '';
      const charset = url.searchParams.get('charset');
      const type = `${TYPES[ext] ?? 'application/octet-stream'}${charset ? `; charset=${charset}` : ''}`;
      try {
        const body = readFileSync(new URL(name, FIXTURES));
        res.writeHead(200, { 'content-type': type }).end(body);
      } catch {
        res.writeHead(404).end('not found');
      }
      return;
    }
    switch (path) {
      case '/redirect':
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
        return;
      case '/loop':
        res.writeHead(302, { location: '/loop' }).end();
        return;
      case '/status/500':
        res.writeHead(500, { 'content-type': 'text/html' }).end('<p>boom</p>');
        return;
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
        return;
      case '/report.pdf':
        res
          .writeHead(200, { 'content-type': 'application/pdf' })
          .end(makePdf('Tidal report in PDF form', 'Turbine Report'));
        return;
      case '/gigabyte':
        res.writeHead(200, { 'content-type': 'text/html' });
        return stream(res, 1024 ** 3);
      case '/gigabyte-declared':
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(1024 ** 3) });
        return stream(res, 1024 ** 3);
      case '/endless':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return stream(res, Number.POSITIVE_INFINITY);
      case '/gzip-bomb':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        res.end(gzipSync(Buffer.alloc(64 * 1024 * 1024)));
        return;
      case '/slow': {
        res.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => res.write('a'), 1000);
        timers.add(timer);
        res.on('close', () => {
          clearInterval(timer);
          timers.delete(timer);
        });
        return;
      }
      default:
        res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests: () => requests,
    async close() {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
