import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { createReaderService } from '../../../src/services/reader/index.js';
import { type FixtureServer, startFixtureServer } from './fixture-server.js';

let server: FixtureServer;
const MAX_BYTES = 2 * 1024 * 1024;
const reader = createReaderService({ allowHosts: ['127.0.0.1'], maxBytes: MAX_BYTES });
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await reader.close();
  await server.close();
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('size limit', () => {
  it.each(['/gigabyte', '/gigabyte-declared', '/endless', '/gzip-bomb'])(
    '%s is cut off at the limit with memory bounded',
    async (path) => {
      const before = process.memoryUsage().rss;
      const error = await failure(reader.read({ url: `${server.origin}${path}`, timeout: 10 }));
      const growth = process.memoryUsage().rss - before;
      expect(error.code).toBe(1234);
      expect(error.message).toMatch(/response too large/);
      expect(error.message).toContain(path);
      // A 1 GB body would need a gigabyte; the reader holds at most the limit plus buffers.
      expect(growth).toBeLessThan(100 * 1024 * 1024);
    },
  );
});

describe('time limits', () => {
  it('a slow-loris server (a byte a second) is cut off at the timeout', async () => {
    const error = await failure(reader.read({ url: `${server.origin}/slow`, timeout: 1.5 }));
    expect(error.code).toBe(1234);
    expect(error.message).toMatch(/timed out after 1\.5 s/);
  });

  it('a server that goes quiet trips the idle timeout', async () => {
    const quiet = createReaderService({ allowHosts: ['127.0.0.1'], idleTimeoutMs: 300 });
    try {
      const error = await failure(quiet.read({ url: `${server.origin}/slow`, timeout: 5 }));
      expect(error.code).toBe(1234);
      expect(error.message).toMatch(/timed out: the server stopped sending/);
    } finally {
      await quiet.close();
    }
  });

  it('a caller abort stops the read', async () => {
    const controller = new AbortController();
    const pending = reader.read({ url: `${server.origin}/slow`, timeout: 10 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('client went away')), 200);
    await expect(pending).rejects.toThrow('client went away');
  });
});

describe('upstream failures', () => {
  it('reports an HTTP error status', async () => {
    const error = await failure(reader.read({ url: `${server.origin}/status/500` }));
    expect(error.code).toBe(1234);
    expect(error.message).toMatch(/HTTP 500/);
  });

  it('refuses content it cannot read', async () => {
    const error = await failure(reader.read({ url: `${server.origin}/image` }));
    expect(error.code).toBe(1234);
    expect(error.message).toMatch(/unsupported content type image\/png/);
  });

  it('reports a refused connection', async () => {
    const error = await failure(reader.read({ url: 'http://127.0.0.1:9/' }));
    expect(error.code).toBe(1234);
    expect(error.message).toMatch(/connection failed/);
  });
});
