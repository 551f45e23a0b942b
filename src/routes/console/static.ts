import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { unknownApi } from '../../errors/errors.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// Built by `npm run build` into dist/console: next to dist/src when running the build, under
// dist/ when running the sources (tests).
const CANDIDATES = [path.resolve(here, '../../../console'), path.resolve(here, '../../../dist/console')];

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

// Everything the page loads is its own; images from the image API may come from elsewhere.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  'img-src * data: blob:',
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export function consoleDir(): string | undefined {
  return CANDIDATES.find((dir) => existsSync(path.join(dir, 'index.html')));
}

/** The console's page and its hashed assets, from the Vite build. */
export async function consoleStatic(scope: FastifyInstance): Promise<void> {
  const dir = consoleDir();
  const notBuilt = () => unknownApi('The console is not built: run `npm run build`');
  const page = async (_request: unknown, reply: FastifyReply) => {
    if (!dir) throw notBuilt();
    const html = await readFile(path.join(dir, 'index.html'));
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(html);
  };
  const hide = { schema: { hide: true } };
  scope.get('/console', hide, page);
  scope.get('/console/', hide, page);
  scope.get('/console/assets/:file', hide, async (request, reply) => {
    const { file } = request.params as { file: string };
    const type = TYPES[path.extname(file)];
    if (!dir || !type || !/^[\w.-]+$/.test(file) || file.startsWith('.')) {
      throw unknownApi(`No console asset ${file}`);
    }
    const bytes = await readFile(path.join(dir, 'assets', file)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'EISDIR') return undefined;
      throw err;
    });
    if (!bytes) throw unknownApi(`No console asset ${file}`);
    // Vite names assets by their content hash, so a name never changes meaning.
    return reply
      .type(type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  });
}
