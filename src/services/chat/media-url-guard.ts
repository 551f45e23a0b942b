import type { ChatCompletionBody } from '../../api/chat.js';
import { invalidField, upstreamFailure } from '../../errors/errors.js';
import { type AllowList, createAllowList } from '../../net/allow-list.js';
import { isNetError } from '../../net/net-error.js';
import { type LookupFunction, resolveGuarded, systemLookup } from '../../net/resolve.js';

type BodyMessage = ChatCompletionBody['messages'][number];

export interface MediaUrlGuardOptions {
  /** `reader.allow_hosts`: the hosts the reader and the tokenizer may reach although private. */
  allowHosts?: readonly string[];
  lookup?: LookupFunction;
}

interface MediaUrl {
  field: string;
  url: string;
}

/** The `image_url`/`video_url`/`file_url` values of the user messages, with their fields. */
function mediaUrls(messages: readonly BodyMessage[]): MediaUrl[] {
  const found: MediaUrl[] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'user' || typeof m.content === 'string') return;
    m.content.forEach((item, j) => {
      const at = `messages[${i}].content[${j}]`;
      if (item.type === 'image_url') found.push({ field: `${at}.image_url.url`, url: item.image_url.url });
      else if (item.type === 'video_url') found.push({ field: `${at}.video_url.url`, url: item.video_url.url });
      else if (item.type === 'file_url') found.push({ field: `${at}.file_url.url`, url: item.file_url.url });
    });
  });
  return found;
}

/**
 * Media URLs that an upstream engine would fetch on the client's behalf pass the same address guard
 * as the reader's and the tokenizer's own fetches: an http(s) URL whose host resolves to a private,
 * loopback or link-local address (not on `reader.allow_hosts`) is a 1214 naming the item, so the
 * server never becomes a way into its own network. Inline data (`data:` URLs, Base64) passes;
 * other schemes are refused.
 */
export class MediaUrlGuard {
  private readonly allowList: AllowList;
  private readonly lookup: LookupFunction;

  constructor(options: MediaUrlGuardOptions = {}) {
    this.allowList = createAllowList(options.allowHosts);
    this.lookup = options.lookup ?? systemLookup;
  }

  /** Whether any user message carries a media item (most requests do not: nothing else is done then). */
  static applies(messages: readonly BodyMessage[]): boolean {
    for (const m of messages) {
      if (m.role === 'user' && typeof m.content !== 'string' && m.content.some((item) => item.type !== 'text'))
        return true;
    }
    return false;
  }

  async check(messages: readonly BodyMessage[]): Promise<void> {
    await Promise.all(mediaUrls(messages).map((media) => this.checkOne(media)));
  }

  private async checkOne({ field, url }: MediaUrl): Promise<void> {
    const text = url.trim();
    if (/^data:/i.test(text)) return;
    if (!/^https?:\/\//i.test(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(text)) throw invalidField(field, 'must be an http(s) URL, a data: URL or Base64');
      return; // bare Base64
    }
    let host: string;
    try {
      host = new URL(text).hostname;
    } catch {
      throw invalidField(field, 'is not a valid URL');
    }
    try {
      await resolveGuarded(host, this.allowList, this.lookup);
    } catch (error) {
      if (isNetError(error) && error.failure === 'blocked')
        throw invalidField(field, `${text} is refused: ${error.message}`);
      if (isNetError(error)) throw upstreamFailure(`Could not fetch ${field} (${text}): ${error.message}`);
      throw error;
    }
  }
}
