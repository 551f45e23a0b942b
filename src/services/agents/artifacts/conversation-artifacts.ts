import { invalidField } from '../../../errors/errors.js';
import type { FileStore, StoredFile } from '../../../files/types.js';
import type { ConversationRecord } from '../../../stores/conversations.js';
import type { PageSize } from './page-image.js';
import type { ArtifactRenderer, RenderCaller } from './renderer.js';

export interface ArtifactOptions {
  includePdf: boolean;
  pages: PageSize[];
}

/** One content item of a conversation retrieval (decisions.md §7), its file already stored. */
export interface Artifact {
  type: 'file_url' | 'image_url';
  tagCn: string;
  tagEn: string;
  file: StoredFile;
}

/** A page image of more pixels than this would hold hundreds of megabytes while rendered. */
export const MAX_PAGE_PIXELS = 25_000_000;
export const MAX_PAGES = 50;

export function checkArtifactOptions(options: ArtifactOptions): void {
  if (options.pages.length > MAX_PAGES)
    throw invalidField('custom_variables.pages', `must have at most ${MAX_PAGES} items, got ${options.pages.length}`);
  for (const [i, p] of options.pages.entries()) {
    if (p.width * p.height > MAX_PAGE_PIXELS)
      throw invalidField(
        `custom_variables.pages[${i}]`,
        `width × height must be at most ${MAX_PAGE_PIXELS} pixels, got ${p.width * p.height}`,
      );
  }
}

/**
 * The artifacts of a conversation, made anew on each retrieval (they are cheap next to the model
 * calls, and files expire): the translation as UTF-8 text, its PDF when asked for, and a PNG of each
 * page asked for. Pages past the PDF's last are a 1214 naming the item.
 */
export async function conversationArtifacts(
  record: ConversationRecord,
  options: ArtifactOptions,
  files: FileStore,
  renderer: ArtifactRenderer,
  caller: RenderCaller = {},
): Promise<Artifact[]> {
  checkArtifactOptions(options);
  const needPdf = options.includePdf || options.pages.length > 0;
  const rendered = needPdf
    ? await renderer.render(record.translation, `Translation ${record.id}`, options.pages, caller)
    : undefined;
  for (const [i, p] of options.pages.entries()) {
    if (rendered && p.position > rendered.pageCount)
      throw invalidField(
        `custom_variables.pages[${i}].position`,
        `the translation's PDF has ${rendered.pageCount} page${rendered.pageCount === 1 ? '' : 's'}, got ${p.position}`,
      );
  }
  const items: Artifact[] = [];
  const text = await files.put(Buffer.from(record.translation, 'utf8'), { contentType: 'text/plain; charset=UTF-8' });
  items.push({ type: 'file_url', tagCn: '译文', tagEn: 'translation', file: text });
  if (rendered && options.includePdf) {
    const file = await files.put(rendered.pdf, { contentType: 'application/pdf' });
    items.push({ type: 'file_url', tagCn: '译文PDF', tagEn: 'translation_pdf', file });
  }
  for (const [i, png] of (rendered?.images ?? []).entries()) {
    const n = options.pages[i]!.position;
    const file = await files.put(png, { contentType: 'image/png' });
    items.push({ type: 'image_url', tagCn: `第${n}页`, tagEn: `page_${n}`, file });
  }
  return items;
}
