/**
 * A zero-cost OpenAI-compatible image engine for the benchmark: `POST /v1/images/generations`
 * answers a precomputed PNG of the requested size as b64_json after `delayMs`, so the figures
 * measure the platform, not image making.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface FakeEngine {
  url: string;
  delayMs: number;
  close(): Promise<void>;
}

export async function startFakeEngine(sizes: string[]): Promise<FakeEngine> {
  const bodies = new Map<string, string>();
  for (const size of sizes) {
    const [width, height] = size.split('x').map(Number) as [number, number];
    const png = await sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    bodies.set(size, JSON.stringify({ created: 1, data: [{ b64_json: png.toString('base64') }] }));
  }
  const engine: FakeEngine = { url: '', delayMs: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { size?: string };
      const answer = bodies.get(body.size ?? '') ?? '{"error":{"message":"size not prepared"}}';
      const send = () => {
        res.writeHead(bodies.has(body.size ?? '') ? 200 : 400, { 'content-type': 'application/json' });
        res.end(answer);
      };
      if (engine.delayMs > 0) setTimeout(send, engine.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  engine.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  engine.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return engine;
}
