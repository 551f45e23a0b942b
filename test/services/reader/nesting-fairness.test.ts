import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { boundNesting } from '../../../src/services/reader/bound-nesting.js';
import { type DomNode, isElement, parseDocument } from '../../../src/services/reader/dom.js';
import { createReaderService } from '../../../src/services/reader/index.js';
import { RequestCancel } from '../../../src/util/cancel-signal.js';
import { hugeHtml } from './heavy-pages.js';

/**
 * Nested HTML against the extraction threads: 300,000 unclosed `<div>`s cost linkedom's parser
 * quadratic time, so the nesting is bounded by a linear pass before the parse; pages waiting for a
 * thread are served key by key and one key (or account) never holds every thread; a page's extraction has its
 * own time cap whatever the read's timeout.
 */

const DEEP = '<div>'.repeat(300_000);
const TINY = `<!doctype html><html><head><title>Quay</title></head><body><article>${'<p>The ferry left the quay at dawn and crossed the sound before the wind turned.</p>'.repeat(4)}</article></body></html>`;

let server: Server;
let origin: string;
beforeAll(async () => {
  const pages: Record<string, string> = {
    '/deep': DEEP,
    '/deeper': '<div>'.repeat(900_000),
    '/tiny': TINY,
    '/huge': hugeHtml(3_000_000),
  };
  server = createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', origin).pathname];
    if (page === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function depth(node: DomNode): number {
  let deepest = 0;
  const stack: [DomNode, number][] = [[node, 1]];
  while (stack.length > 0) {
    const [current, level] = stack.pop() as [DomNode, number];
    deepest = Math.max(deepest, level);
    for (let child = current.firstChild; child; child = child.nextSibling)
      if (isElement(child)) stack.push([child, level + 1]);
  }
  return deepest;
}

describe('nesting bound before the parse', () => {
  it('300,000 unclosed divs reach the parser 256 deep', () => {
    const bounded = boundNesting(DEEP, 256);
    expect(bounded).toBe('<div>'.repeat(256));
    expect(depth(parseDocument(DEEP).documentElement)).toBeLessThanOrEqual(256);
  });

  it('leaves a page within the bound as it is, text of the dropped tags included', () => {
    const page = `<html><body><svg>${'<path d="M0 0"/>'.repeat(1000)}</svg>${'<p>para'.repeat(600)}<ul>${'<li>item'.repeat(600)}</ul></body></html>`;
    expect(boundNesting(page, 256)).toBe(page);
    const deep = `${'<section>'.repeat(300)}deep text${'</section>'.repeat(300)}<p>after</p>`;
    const bounded = boundNesting(deep, 256);
    expect(bounded).toContain('deep text');
    expect(bounded).toContain('<p>after</p>');
    expect(depth(parseDocument(deep).documentElement)).toBeLessThanOrEqual(256);
  });

  it('reads tags as the parser does: quotes in attribute names, raw-text elements, stray end tags', () => {
    const tricks = [
      `<div a"b>${'<div>'.repeat(5000)}"`,
      `${'<div>'.repeat(300)}<script>${'<div>'.repeat(5000)}</script>${'<div>'.repeat(5000)}`,
      '<div></span>'.repeat(5000),
      `<!-->${'<div>'.repeat(5000)}-->`,
      `<svg>${'<g/>'.repeat(10)}</svg>${'<b>'.repeat(5000)}`,
    ];
    for (const page of tricks) expect(depth(parseDocument(page).documentElement)).toBeLessThanOrEqual(258);
  });
});

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

describe('extraction queue', () => {
  it("key B's tiny page waits at most 3 lone reads while key A sends two deep pages", async () => {
    const reader = createReaderService({ allowHosts: ['127.0.0.1'], workers: 2 });
    const tiny = (n: number) => () => reader.read({ url: `${origin}/tiny?${n}`, no_cache: true }, { tenant: 'B' });
    const deep = (n: number) => reader.read({ url: `${origin}/deeper?${n}`, timeout: 120 }, { tenant: 'A' });
    try {
      await reader.warmUp();
      // A lone read: B's, with A's first page on the other thread (one core busy, as below), the
      // median of seven.
      const pages = [deep(1)];
      await vi.waitFor(() => expect(reader.extraction()).toMatchObject({ busy: 1, waiting: 0 }), {
        timeout: 10_000,
        interval: 5,
      });
      const lone: number[] = [];
      for (let n = 0; n < 7; n++) lone.push(await timed(tiny(n)));
      const usual = lone.sort((a, b) => a - b)[3] as number;
      pages.push(deep(2));
      // A's second page waits although a thread is free: one key never holds every thread. (Each
      // page is fetched before it queues, so the two reach the pool at different moments.)
      await vi.waitFor(() => expect(reader.extraction()).toMatchObject({ busy: 1, waiting: 1 }), {
        timeout: 10_000,
        interval: 5,
      });
      const burst: number[] = [];
      for (let n = 7; n < 12; n++) burst.push(await timed(tiny(n)));
      const b = burst.sort((x, y) => x - y)[2] as number;
      // A is still on its thread, its second page still held: B's reads were made under A's burst.
      expect(reader.extraction()).toMatchObject({ busy: 1, waiting: 1 });
      // Medians of five and seven against one read's noise; 50 ms for timer granularity. Before the
      // bound and the lanes, B waited for both deep pages.
      const times = `lone reads ${lone.map((x) => x.toFixed(0)).join(' ')} ms, B's ${burst.map((x) => x.toFixed(0)).join(' ')}`;
      expect(b, times).toBeLessThanOrEqual(3 * usual + 50);
      for (const { result } of await Promise.all(pages)) expect(result.content.trim()).toBe('');
    } finally {
      await reader.close();
    }
  }, 120_000);

  it("an account's keys share its threads: all but one, not all but one each", async () => {
    const reader = createReaderService({ allowHosts: ['127.0.0.1'], workers: 2 });
    const cancel = new RequestCancel();
    const deep = (tenant: string) =>
      reader.read({ url: `${origin}/deeper?${tenant}`, timeout: 120 }, { tenant, signal: cancel }).catch(() => {});
    try {
      await reader.warmUp();
      // Two keys of account 1 (tenants `account/key`, as the reader operation and the MCP tool
      // give them): the second key's page waits although a thread is free.
      const pages = [deep('acct-1/key-1')];
      await vi.waitFor(() => expect(reader.extraction()).toMatchObject({ busy: 1 }), { timeout: 10_000, interval: 5 });
      pages.push(deep('acct-1/key-2'));
      await vi.waitFor(() => expect(reader.extraction()).toMatchObject({ busy: 1, waiting: 1 }), {
        timeout: 10_000,
        interval: 5,
      });
      // Another account's key takes the free thread.
      const other = await reader.read({ url: `${origin}/tiny?other`, no_cache: true }, { tenant: 'acct-2/key-3' });
      expect(other.result.content).toContain('ferry');
      expect(reader.extraction()).toMatchObject({ busy: 1, waiting: 1 });
      // Two keys without an account are two callers: each gets a thread.
      cancel.abort();
      await Promise.all(pages);
      const own = new RequestCancel();
      const apart = ['key-4', 'key-5'].map((tenant) =>
        reader.read({ url: `${origin}/deeper?${tenant}`, timeout: 120 }, { tenant, signal: own }).catch(() => {}),
      );
      await vi.waitFor(() => expect(reader.extraction()).toMatchObject({ busy: 2, waiting: 0 }), {
        timeout: 10_000,
        interval: 5,
      });
      own.abort();
      await Promise.all(apart);
    } finally {
      await reader.close();
    }
  }, 120_000);

  it("a page's extraction is cut at reader.extract_timeout_seconds whatever the read's timeout", async () => {
    const reader = createReaderService({ allowHosts: ['127.0.0.1'], workers: 1, extractTimeoutSeconds: 1 });
    try {
      const error = await reader.read({ url: `${origin}/huge`, timeout: 120 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe(1234);
      expect((error as ApiError).message).toMatch(/took more than 1 s to extract \(reader\.extract_timeout_seconds\)/);
      expect(reader.extraction().recycled).toBe(1);
      expect((await reader.read({ url: `${origin}/tiny` })).result.content).toContain('ferry');
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('a full queue refuses with 1305; waiting pages are served key by key', async () => {
    const reader = createReaderService({ allowHosts: ['127.0.0.1'], workers: 1, extractQueueSize: 2 });
    try {
      const order: string[] = [];
      const read = (key: string, n: number) =>
        reader.read({ url: `${origin}/tiny?${key}${n}`, no_cache: true }, { tenant: key }).then(
          () => order.push(key),
          (error: unknown) => error,
        );
      const first = read('A', 0);
      await vi.waitFor(() => expect(reader.extraction().busy).toBe(1), { timeout: 20_000, interval: 2 });
      const a1 = read('A', 1);
      const a2 = read('A', 2);
      await vi.waitFor(() => expect(reader.extraction().waiting).toBe(2), { timeout: 10_000, interval: 2 });
      // The queue is full of A's pages: B's page takes the place of A's newest.
      const b = read('B', 0);
      const c = read('C', 0);
      const outcomes = await Promise.all([first, a1, a2, b, c]);
      expect(outcomes[2]).toMatchObject({ code: 1305 });
      expect(outcomes[4]).toMatchObject({ code: 1305 });
      expect(order).toEqual(['A', 'B', 'A']);
    } finally {
      await reader.close();
    }
  }, 60_000);
});
