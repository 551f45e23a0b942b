import { afterAll, describe, expect, it } from 'vitest';
import { ArtifactRenderer } from '../../../src/services/agents/artifacts/renderer.js';
import { RequestCancel } from '../../../src/util/cancel-signal.js';

const renderer = new ArtifactRenderer();
afterAll(() => renderer.close());

describe('ArtifactRenderer (worker thread)', () => {
  it('renders a PDF and the pages asked for', async () => {
    const out = await renderer.render('Hello, 你好, مرحبا', 'title', [{ position: 1, width: 120, height: 170 }]);
    expect(Buffer.from(out.pdf).subarray(0, 5).toString()).toBe('%PDF-');
    expect(out.pageCount).toBe(1);
    expect(out.images).toHaveLength(1);
    const png = Buffer.from(out.images[0]!);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([120, 170]);
  });

  it('renders no image when a position is past the last page, and says how many pages there are', async () => {
    const out = await renderer.render('one page', 'title', [{ position: 2, width: 10, height: 10 }]);
    expect(out.pageCount).toBe(1);
    expect(out.images).toEqual([]);
  });

  it('serves concurrent jobs, each its own answer', async () => {
    const texts = Array.from({ length: 4 }, (_, i) => `${'line\n'.repeat(60 * (i + 1))}`);
    const outs = await Promise.all(texts.map((t) => renderer.render(t, 't', [])));
    const alone: number[] = [];
    for (const t of texts) alone.push((await renderer.render(t, 't', [])).pageCount);
    expect(outs.map((o) => o.pageCount)).toEqual(alone);
    expect(new Set(alone).size).toBe(4);
  });

  it('fails the jobs it holds when closed, and starts again on the next', async () => {
    const other = new ArtifactRenderer();
    const failed = expect(other.render('x', 't', [])).rejects.toThrow(/closed|exited/);
    await other.close();
    await failed;
    const again = await other.render('x', 't', []);
    expect(again.pageCount).toBe(1);
    await other.close();
  });

  it('renders one job at a time, serves waiting jobs key by key, refuses past its line with 1305, and drops a job whose client left', async () => {
    const small = new ArtifactRenderer(3);
    const posted: string[] = [];
    const post = (small as unknown as { post: (text: string) => Promise<unknown> }).post.bind(small);
    (small as unknown as { post: (text: string, ...rest: unknown[]) => Promise<unknown> }).post = (text, ...rest) => {
      posted.push(text);
      return (post as (...a: unknown[]) => Promise<unknown>)(text, ...rest);
    };
    const done: string[] = [];
    const job = (text: string, tenant: string, signal?: RequestCancel) =>
      small.render(text, 't', [], { tenant, ...(signal ? { signal } : {}) }).then(() => done.push(text));
    const left = new RequestCancel();
    const jobs = [job('burst 1', 'burst'), job('burst 2', 'burst'), job('burst 3', 'burst')];
    const leaving = job('lone, gone', 'lone', left);
    expect(small.waiting).toBe(3);
    // Its own key already waits, and no lane is two longer: refused (not another key's pushed out).
    await expect(job('one too many', 'lone')).rejects.toMatchObject({ code: 1305, retryAfter: 5 });
    left.abort(new Error('client left'));
    await expect(leaving).rejects.toThrow('client left');
    jobs.push(job('lone', 'lone'));
    await Promise.all(jobs);
    expect(done).toEqual(['burst 1', 'lone', 'burst 2', 'burst 3']);
    expect(posted).toEqual(done);
    await small.close();
  });
});
