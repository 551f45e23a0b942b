import { createHmac } from 'node:crypto';
import { invalidField } from '../../../errors/errors.js';
import type { FileNeed, FileReservation, FileStore, StoredFile } from '../../../files/types.js';
import type { ConversationRecord } from '../../../stores/conversations.js';
import { type CancelSignal, throwIfCancelled } from '../../../util/cancel-signal.js';
import type { PageSize } from './page-image.js';
import type { ArtifactRenderer } from './renderer.js';

export interface ArtifactOptions {
  includePdf: boolean;
  pages: PageSize[];
}

/** One content item of a conversation retrieval (docs/wire.md, "Agents"), its file already stored. */
export interface Artifact {
  type: 'file_url' | 'image_url';
  tagCn: string;
  tagEn: string;
  file: StoredFile;
}

/** `agents.general_translation.artifact_*`: what one retrieval may ask to be rendered. */
export interface ArtifactLimits {
  maxPages: number;
  /** One page image: more pixels would hold hundreds of megabytes while rendered. */
  maxPagePixels: number;
  /** All page images of one request together. */
  maxPixels: number;
}

export const ARTIFACT_DEFAULTS: ArtifactLimits = { maxPages: 50, maxPagePixels: 25_000_000, maxPixels: 50_000_000 };

const PAGES = 'custom_variables.pages';

/** 1214 naming the field and the config key, before anything is rendered. */
export function checkArtifactOptions(options: ArtifactOptions, limits: ArtifactLimits = ARTIFACT_DEFAULTS): void {
  if (options.pages.length > limits.maxPages) {
    throw invalidField(
      PAGES,
      `must have at most ${limits.maxPages} items (agents.general_translation.artifact_max_pages), got ${options.pages.length}`,
    );
  }
  let total = 0;
  for (const [i, p] of options.pages.entries()) {
    const pixels = p.width * p.height;
    if (pixels > limits.maxPagePixels)
      throw invalidField(
        `${PAGES}[${i}]`,
        `width × height must be at most ${limits.maxPagePixels} pixels (agents.general_translation.artifact_max_page_pixels), got ${pixels}`,
      );
    total += pixels;
  }
  if (total > limits.maxPixels) {
    throw invalidField(
      PAGES,
      `the pages together must be at most ${limits.maxPixels} pixels (agents.general_translation.artifact_max_pixels), got ${total}`,
    );
  }
}

/** A job that several identical requests wait for, cancelled only when every one of them has left. */
interface Shared {
  promise: Promise<Artifact[]>;
  waiting: number;
  controller: AbortController;
}

/**
 * The artifacts of a conversation, made once per conversation and options: the translation as
 * UTF-8 text, its PDF when asked for, and a PNG of each page asked for, stored in the file store
 * with a small manifest under an id derived from the key, the conversation and the options (an
 * HMAC under a server secret, so as unguessable as a random id). A repeat retrieval reads the
 * manifest and returns the same files until they expire; identical retrievals at the same time
 * share one rendering, which is dropped when all their clients have left.
 */
export class ConversationArtifacts {
  private readonly running = new Map<string, Shared>();

  constructor(
    private readonly files: FileStore,
    private readonly renderer: ArtifactRenderer,
    private readonly secret: Buffer,
    private readonly limits: ArtifactLimits = ARTIFACT_DEFAULTS,
  ) {}

  check(options: ArtifactOptions): void {
    checkArtifactOptions(options, this.limits);
  }

  /** `signal`: the client's cancellation; the rendering waits its turn by the conversation's key. */
  async get(record: ConversationRecord, options: ArtifactOptions, signal?: CancelSignal): Promise<Artifact[]> {
    this.check(options);
    const manifestId = this.manifestId(record, options);
    const stored = await this.files.get(manifestId, Date.now());
    if (stored) return JSON.parse(stored.bytes.toString('utf8')) as Artifact[];
    let shared = this.running.get(manifestId);
    if (!shared) {
      const controller = new AbortController();
      const promise = this.make(record, options, manifestId, controller.signal).finally(() => {
        this.running.delete(manifestId);
      });
      shared = { promise, waiting: 0, controller };
      this.running.set(manifestId, shared);
    }
    return this.wait(shared, signal);
  }

  private wait(shared: Shared, signal: CancelSignal | undefined): Promise<Artifact[]> {
    shared.waiting++;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      if (--shared.waiting === 0) shared.controller.abort(signal?.reason);
    };
    if (signal?.aborted) leave();
    else signal?.addEventListener('abort', leave, { once: true });
    return shared.promise.finally(() => {
      signal?.removeEventListener('abort', leave);
    });
  }

  private manifestId(record: ConversationRecord, options: ArtifactOptions): string {
    const canonical = JSON.stringify([
      record.keyId,
      record.id,
      options.includePdf,
      options.pages.map((p) => [p.position, p.width, p.height]),
    ]);
    return createHmac('sha256', this.secret).update(canonical).digest('base64url').slice(0, 32);
  }

  private async make(
    record: ConversationRecord,
    options: ArtifactOptions,
    manifestId: string,
    signal: CancelSignal,
  ): Promise<Artifact[]> {
    // Every file counts against the share of the key that made the conversation; their room is
    // held before anything is rendered, so a key at its cap is refused before the work.
    const room = await this.files.reserve(record.keyId, artifactRoom(record.translation, options));
    try {
      return await this.render(record, options, manifestId, signal, room);
    } finally {
      room.release();
    }
  }

  private async render(
    record: ConversationRecord,
    options: ArtifactOptions,
    manifestId: string,
    signal: CancelSignal,
    room: FileReservation,
  ): Promise<Artifact[]> {
    const needPdf = options.includePdf || options.pages.length > 0;
    const rendered = needPdf
      ? await this.renderer.render(record.translation, `Translation ${record.id}`, options.pages, {
          tenant: record.keyId,
          signal,
        })
      : undefined;
    for (const [i, p] of options.pages.entries()) {
      if (rendered && p.position > rendered.pageCount)
        throw invalidField(
          `${PAGES}[${i}].position`,
          `the translation's PDF has ${rendered.pageCount} page${rendered.pageCount === 1 ? '' : 's'}, got ${p.position}`,
        );
    }
    throwIfCancelled(signal);
    const items: Artifact[] = [];
    const text = await room.put(Buffer.from(record.translation, 'utf8'), { contentType: 'text/plain; charset=UTF-8' });
    items.push({ type: 'file_url', tagCn: '译文', tagEn: 'translation', file: text });
    if (rendered && options.includePdf) {
      const file = await room.put(rendered.pdf, { contentType: 'application/pdf' });
      items.push({ type: 'file_url', tagCn: '译文PDF', tagEn: 'translation_pdf', file });
    }
    for (const [i, png] of (rendered?.images ?? []).entries()) {
      const n = options.pages[i]!.position;
      const file = await room.put(png, { contentType: 'image/png' });
      items.push({ type: 'image_url', tagCn: `第${n}页`, tagEn: `page_${n}`, file });
    }
    // The manifest lapses no later than the first of its files, so it never names an expired one.
    const expires = Math.min(...items.map((a) => a.file.expiresAt));
    const ttlMs = expires - Date.now() - 1000;
    if (ttlMs > 0) {
      await room.put(Buffer.from(JSON.stringify(items)), { contentType: 'application/json', id: manifestId, ttlMs });
    }
    return items;
  }
}

/** What one item of a manifest takes at most: its tags, type and the stored file's fields. */
const MANIFEST_ITEM_BYTES = 1024;
/** A page image's PNG container (signature, chunks, deflate block headers) beyond its pixels. */
const PNG_CONTAINER_BYTES = 64 * 1024;

/**
 * The room a retrieval's artifacts are held before they are rendered: one file each (text, PDF,
 * every page, the manifest), and the bytes of the text, of each page image uncompressed (8-bit
 * RGBA, a filter byte a row) and of the manifest. The PDF's size is known only once it is laid
 * out (fonts, line breaks): its bytes come out of what the page images leave, and are checked
 * against the caps again when it is stored.
 */
export function artifactRoom(translation: string, options: ArtifactOptions): FileNeed {
  const files = 2 + (options.includePdf ? 1 : 0) + options.pages.length;
  let bytes = Buffer.byteLength(translation, 'utf8') + files * MANIFEST_ITEM_BYTES;
  for (const p of options.pages) bytes += p.width * p.height * 4 + p.height + PNG_CONTAINER_BYTES;
  return { files, bytes };
}
