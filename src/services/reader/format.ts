import type { DomElement } from './dom.js';
import { applyImageOptions, imagesSummary, linksSummary } from './images-links.js';
import { toMarkdown } from './markdown.js';
import { toPlainText } from './plain-text.js';
import type { ReaderRequest } from './types.js';

export interface FormattedContent {
  content: string;
  images?: Record<string, string>;
  links?: Record<string, string>;
}

/** Applies the request's image options, builds the summaries, and renders the chosen format (consuming `root`). */
export function formatArticle(root: DomElement, request: ReaderRequest): FormattedContent {
  applyImageOptions(root, {
    retainImages: request.retain_images ?? true,
    keepDataUrls: request.keep_img_data_url ?? false,
  });
  const format = request.return_format ?? 'markdown';
  // Before the content: the Markdown conversion consumes the article (markdown.ts).
  const images = request.with_images_summary ? imagesSummary(root) : undefined;
  const links = request.with_links_summary ? linksSummary(root) : undefined;
  const content =
    format === 'html'
      ? root.innerHTML.trim()
      : format === 'text'
        ? toPlainText(root)
        : toMarkdown(root, { gfm: !(request.no_gfm ?? false) });
  return {
    content,
    ...(images ? { images } : {}),
    ...(links ? { links } : {}),
  };
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Plain text, JSON or PDF text in the chosen format: text as is, fenced JSON in Markdown, `<pre>` in HTML. */
export function formatPlain(text: string, kind: 'text' | 'json', request: ReaderRequest): string {
  const format = request.return_format ?? 'markdown';
  if (format === 'html') return `<pre>${escapeHtml(text)}</pre>`;
  if (format === 'markdown' && kind === 'json') return `\`\`\`json\n${text.trim()}\n\`\`\``;
  return text;
}
