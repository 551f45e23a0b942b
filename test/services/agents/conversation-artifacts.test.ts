import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { CappedFileStore, type FileCaps } from '../../../src/files/capped-file-store.js';
import { LocalFileStore } from '../../../src/files/local/local-file-store.js';
import { ConversationArtifacts } from '../../../src/services/agents/artifacts/conversation-artifacts.js';
import type { PageSize } from '../../../src/services/agents/artifacts/page-image.js';
import type { ArtifactRenderer, RenderCaller, Rendered } from '../../../src/services/agents/artifacts/renderer.js';
import type { ConversationRecord } from '../../../src/stores/conversations.js';
import type { CancelSignal } from '../../../src/util/cancel-signal.js';

/** A renderer that counts its jobs and finishes each when told to. */
class FakeRenderer {
  jobs: { pages: PageSize[]; tenant: string | undefined; signal: CancelSignal | undefined; finish: () => void }[] = [];
  render(_text: string, _title: string, pages: PageSize[], caller: RenderCaller = {}): Promise<Rendered> {
    const { signal, tenant } = caller;
    return new Promise((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason));
      this.jobs.push({
        pages,
        tenant,
        signal,
        finish: () => resolve({ pdf: Buffer.from('%PDF-'), pageCount: 3, images: pages.map(() => Buffer.from('png')) }),
      });
    });
  }
}

const record: ConversationRecord = {
  id: 'conv-1',
  keyId: 'key-1',
  agentId: 'general_translation',
  settings: {},
  sourceText: 's',
  translation: 'Bonjour',
  usage: { promptTokens: 1, completionTokens: 1, totalCalls: 1 },
  createdAt: 0,
};
const page = (position: number): PageSize => ({ position, width: 100, height: 100 });
const tick = () => new Promise((r) => setTimeout(r, 10));
/** The renderer has been handed `n` jobs (each call reads the file store first: slow under load), and a turn more. */
const jobsStarted = async (n: number) => {
  await vi.waitFor(() => expect(renderer.jobs.length).toBeGreaterThanOrEqual(n));
  await tick();
};

let dir: string;
let files: LocalFileStore;
let renderer: FakeRenderer;
let artifacts: ConversationArtifacts;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'artifacts-'));
  files = new LocalFileStore({ dir, ttlMs: 3_600_000 });
  renderer = new FakeRenderer();
  artifacts = new ConversationArtifacts(files, renderer as unknown as ArtifactRenderer, Buffer.alloc(32, 7), {
    maxPages: 5,
    maxPagePixels: 20_000,
    maxPixels: 30_000,
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('conversation artifacts, made once per conversation and options', () => {
  it('a repeat call returns the same files without rendering again', async () => {
    const options = { includePdf: true, pages: [page(1)] };
    const first = artifacts.get(record, options);
    await jobsStarted(1);
    renderer.jobs[0]!.finish();
    const a = await first;
    const b = await artifacts.get(record, options);
    expect(b).toEqual(a);
    expect(renderer.jobs).toHaveLength(1);
    // The rendering waited its turn as the conversation's key.
    expect(renderer.jobs[0]!.tenant).toBe('key-1');
    // Another process on the same files and secret finds them too.
    const other = new ConversationArtifacts(files, renderer as unknown as ArtifactRenderer, Buffer.alloc(32, 7));
    expect(await other.get(record, options)).toEqual(a);
    // Other options, or another secret, are other artifacts.
    const text = await artifacts.get(record, { includePdf: false, pages: [] });
    expect(text.map((i) => i.tagEn)).toEqual(['translation']);
    expect(text[0]!.file.id).not.toBe(a[0]!.file.id);
  });

  it('identical calls at once share one rendering', async () => {
    const options = { includePdf: false, pages: [page(2)] };
    const calls = [artifacts.get(record, options), artifacts.get(record, options)];
    await jobsStarted(1);
    expect(renderer.jobs).toHaveLength(1);
    renderer.jobs[0]!.finish();
    const [a, b] = await Promise.all(calls);
    expect(b).toEqual(a);
  });

  it('drops the rendering when every client waiting for it has left, not before', async () => {
    const options = { includePdf: true, pages: [] };
    const one = new AbortController();
    const two = new AbortController();
    const calls = [artifacts.get(record, options, one.signal), artifacts.get(record, options, two.signal)];
    for (const c of calls) c.catch(() => undefined);
    await jobsStarted(1);
    one.abort(new Error('left'));
    expect(renderer.jobs[0]!.signal!.aborted).toBe(false);
    two.abort(new Error('left'));
    expect(renderer.jobs[0]!.signal!.aborted).toBe(true);
    await expect(calls[1]).rejects.toThrow('left');
    // Nothing was stored: the next call renders anew.
    const again = artifacts.get(record, options);
    await jobsStarted(2);
    expect(renderer.jobs).toHaveLength(2);
    renderer.jobs[1]!.finish();
    expect((await again).map((i) => i.tagEn)).toEqual(['translation', 'translation_pdf']);
  });
});

describe('artifact limits (1214 before anything is rendered)', () => {
  it.each([
    [{ pages: [1, 1, 1, 1, 1, 1].map(page) }, 'custom_variables.pages', 'artifact_max_pages'],
    [{ pages: [{ position: 1, width: 200, height: 101 }] }, 'custom_variables.pages[0]', 'artifact_max_page_pixels'],
    [{ pages: [page(1), page(2), page(3), page(1)] }, 'custom_variables.pages', 'artifact_max_pixels'],
  ])('%j', async (options, field, key) => {
    const error = await artifacts.get(record, { includePdf: false, ...options }).catch((e: Error) => e);
    expect(String((error as Error).message)).toContain(field);
    expect(String((error as Error).message)).toContain(`agents.general_translation.${key}`);
    expect(renderer.jobs).toHaveLength(0);
  });
});

describe('artifacts and the file caps (refused before anything is rendered)', () => {
  const cappedArtifacts = (caps: Partial<FileCaps>) =>
    new ConversationArtifacts(
      new CappedFileStore(
        files,
        { maxTotalBytes: 0, maxTotalFiles: 0, maxBytesPerAccount: 0, maxFilesPerAccount: 0, ...caps },
        async (keyId) => `key:${keyId}`,
      ),
      renderer as unknown as ArtifactRenderer,
      Buffer.alloc(32, 7),
    );

  it('a key whose share cannot hold the files asked for gets 1308, and the renderer no job', async () => {
    // Text, PDF, two pages and the manifest: 5 files, where the key may hold 4.
    const error = await cappedArtifacts({ maxFilesPerAccount: 4 })
      .get(record, { includePdf: true, pages: [page(1), page(2)] })
      .catch((e: ApiError) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(1308);
    expect((error as ApiError).message).toMatch(/files\.max_files_per_account.*would store 5 files/);
    expect(renderer.jobs).toHaveLength(0);
  });

  it('the pages asked for count at their uncompressed size against the byte share', async () => {
    // 100 × 100 RGBA is 40,000 bytes a page before the PNG container.
    const error = await cappedArtifacts({ maxBytesPerAccount: 100_000 })
      .get(record, { includePdf: false, pages: [page(1)] })
      .catch((e: ApiError) => e);
    expect((error as ApiError).code).toBe(1308);
    expect(renderer.jobs).toHaveLength(0);
    // Within the share, the files are made and stored under the key's share.
    const fits = cappedArtifacts({ maxFilesPerAccount: 3, maxBytesPerAccount: 1_000_000 });
    const made = fits.get(record, { includePdf: false, pages: [page(1)] });
    await jobsStarted(1);
    renderer.jobs[0]!.finish();
    expect((await made).map((i) => i.tagEn)).toEqual(['translation', 'page_1']);
    expect((await files.usage(Date.now())).byOwner.get('key:key-1')?.files).toBe(3);
  });
});
