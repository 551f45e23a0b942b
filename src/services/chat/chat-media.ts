import type { ChatCompletionBody } from '../../api/chat.js';
import { invalidField } from '../../errors/errors.js';
import { createGuardedFetcher, type Fetcher } from '../../net/fetcher.js';
import type { LookupFunction } from '../../net/resolve.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import { MediaBudget } from '../media/budget.js';
import { isHttpUrl, loadMedia, type MediaFetch } from '../media/media-source.js';
import { MAX_IMAGE_BYTES, MAX_VIDEO_BYTES, type MediaKind, mediaTypeOf } from '../media/media-type.js';

type BodyMessage = ChatCompletionBody['messages'][number];
type ContentItem = Exclude<Extract<BodyMessage, { role: 'user' }>['content'], string>[number];

export interface ChatMediaOptions {
  /** `reader.allow_hosts`: what guarded fetches may reach beyond public addresses. */
  allowHosts?: readonly string[];
  lookup?: LookupFunction;
  /** `chat.media_max_bytes`: what the media URLs of one request may fetch together. */
  maxBytes?: number;
  /** `chat.media_deadline_seconds`: how long they may take together. */
  deadlineSeconds?: number;
}

export const CHAT_MEDIA_DEFAULTS = { maxBytes: 32 * 1024 * 1024, deadlineSeconds: 30 } as const;

const KIND: Record<string, MediaKind> = { image_url: 'image', video_url: 'video', file_url: 'file' };
const NOUN: Record<MediaKind, string> = { image: 'an image', video: 'a video', file: 'a file' };

/**
 * Media URLs of a request for an engine with vision (an upstream that would otherwise fetch them
 * itself, from wherever the URL or its redirects point). Each http(s) URL is fetched here instead,
 * through src/net's guarded fetcher: public addresses only (`reader.allow_hosts` opens internal
 * hosts), every redirect re-checked, each item within its own limit (images 5 MB, videos 200 MB)
 * and all of them within one byte budget and one deadline. The upstream receives the bytes inline,
 * as `data:` URLs, so it fetches nothing. `data:` URLs and bare Base64 are inline already and pass as
 * they are; other schemes are refused. Every refusal is a 1214 naming the item; a failure on the far
 * side is a 1234.
 */
export class ChatMedia {
  constructor(private readonly options: ChatMediaOptions = {}) {}

  /** Whether any user message carries a media item (most requests do not: nothing else is done then). */
  static applies(messages: readonly BodyMessage[]): boolean {
    for (const m of messages) {
      if (m.role === 'user' && typeof m.content !== 'string' && m.content.some((item) => item.type !== 'text'))
        return true;
    }
    return false;
  }

  /** The messages with every http(s) media URL replaced by its bytes as a `data:` URL. */
  async inline(messages: readonly BodyMessage[], signal: CancelSignal): Promise<BodyMessage[]> {
    let fetcher: Fetcher | undefined;
    const via: MediaFetch = {
      fetcher: () => {
        fetcher ??= createGuardedFetcher({
          ...(this.options.allowHosts ? { allowHosts: this.options.allowHosts } : {}),
          ...(this.options.lookup ? { lookup: this.options.lookup } : {}),
        });
        return fetcher;
      },
      maxRedirects: 5,
      userAgent: 'gen-platform-media',
    };
    const budget = new MediaBudget(
      this.options.maxBytes ?? CHAT_MEDIA_DEFAULTS.maxBytes,
      this.options.deadlineSeconds ?? CHAT_MEDIA_DEFAULTS.deadlineSeconds,
      { bytes: 'chat.media_max_bytes', seconds: 'chat.media_deadline_seconds' },
      signal,
    );
    try {
      const out: BodyMessage[] = [];
      for (const [i, m] of messages.entries()) {
        if (m.role !== 'user' || typeof m.content === 'string') {
          out.push(m);
          continue;
        }
        const content: ContentItem[] = [];
        for (const [j, item] of m.content.entries()) {
          content.push(await this.inlineItem(item, `messages[${i}].content[${j}]`, via, budget));
        }
        out.push({ ...m, content });
      }
      return out;
    } finally {
      budget.dispose();
      // destroy, not close: a client that left must not wait for connections still reading.
      await fetcher?.destroy();
    }
  }

  private async inlineItem(item: ContentItem, at: string, via: MediaFetch, budget: MediaBudget): Promise<ContentItem> {
    const url = mediaUrl(item);
    if (url === undefined) return item;
    const kind = KIND[item.type]!;
    const field = `${at}.${item.type}.url`;
    const text = url.trim();
    if (/^data:/i.test(text)) return item;
    if (!isHttpUrl(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(text)) throw invalidField(field, 'must be an http(s) URL, a data: URL or Base64');
      return item; // bare Base64
    }
    const itemMax = kind === 'image' ? MAX_IMAGE_BYTES : kind === 'video' ? MAX_VIDEO_BYTES : budget.maxBytes;
    const fetched = await loadMedia(
      text,
      { field, maxBytes: itemMax, bareBase64: false, timeoutSeconds: budget.deadline.seconds },
      via,
      budget,
    );
    const type = mediaTypeOf(kind, fetched.contentType, fetched.bytes);
    if (type === undefined) {
      const said = fetched.contentType ? `content type ${fetched.contentType}` : 'no content type';
      throw invalidField(field, `${text} is not ${NOUN[kind]} (${said}, and its first bytes say otherwise)`);
    }
    return withUrl(item, `data:${type};base64,${fetched.bytes.toString('base64')}`);
  }
}

function mediaUrl(item: ContentItem): string | undefined {
  if (item.type === 'image_url') return item.image_url.url;
  if (item.type === 'video_url') return item.video_url.url;
  if (item.type === 'file_url') return item.file_url.url;
  return undefined;
}

function withUrl(item: ContentItem, url: string): ContentItem {
  if (item.type === 'image_url') return { ...item, image_url: { ...item.image_url, url } };
  if (item.type === 'video_url') return { ...item, video_url: { ...item.video_url, url } };
  if (item.type === 'file_url') return { ...item, file_url: { ...item.file_url, url } };
  return item;
}
