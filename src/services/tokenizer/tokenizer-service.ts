import type { ReplyIdentity } from '../../api/reply-identity.js';
import type { TokenizerBody } from '../../api/tokenizer.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import type { ChatService } from '../chat/chat-service.js';
import { functionTools, mapMessages } from '../chat/map-request.js';
import { checkMedia, countMedia, visionRuleFor } from './media/media-counter.js';
import type { MediaOptions } from './media/options.js';

export type { MediaOptions } from './media/options.js';

export interface TokenizerReply {
  id: string;
  created: number;
  request_id: string;
  usage: { prompt_tokens: number; image_tokens: number; video_tokens: number; total_tokens: number };
}

/** The messages with image, video and file items removed (text items kept), for the text count. */
function textOnly(messages: TokenizerBody['messages']): TokenizerBody['messages'] {
  return messages.map((m) => {
    if (m.role !== 'user' || typeof m.content === 'string') return m;
    const text = m.content.filter((part) => part.type === 'text');
    return { ...m, content: text.length > 0 ? text : '' };
  });
}

/**
 * Counts with the serving model's own tokenizer and chat template, tools included (docs/wire.md, "Tokenizer");
 * image and video tokens by the model's formula (media/formula.ts, docs/tokenizer.md).
 */
export class TokenizerService {
  constructor(
    private readonly chat: ChatService,
    private readonly media: MediaOptions = {},
  ) {}

  /** `signal` aborts when the client goes away: media fetches and an upstream count stop with it. */
  async count(body: TokenizerBody, identity: ReplyIdentity, signal?: CancelSignal): Promise<TokenizerReply> {
    const rule = visionRuleFor(body.model);
    // Refusals that need neither the model nor a fetch come first; then the model loads (on first
    // use) while the media are fetched.
    checkMedia(body.messages, body.model, rule, this.media);
    if (!this.chat.hasModel(body.model)) await this.chat.engineFor(body.model); // its 1211, before any fetch
    const loading = this.chat.engineFor(body.model);
    loading.catch(() => undefined); // awaited below, after the media
    const media = await countMedia(body.messages, body.model, rule, this.media, signal);
    const engine = await loading;
    // Media items are gone, so the engine counts text whether or not it has vision itself.
    const messages = mapMessages(textOnly(body.messages), false, true);
    const promptTokens = await engine.countTokens(messages, functionTools({ tools: body.tools }), signal);
    return {
      id: identity.id,
      created: identity.created,
      request_id: identity.requestId,
      usage: {
        prompt_tokens: promptTokens,
        image_tokens: media.imageTokens,
        video_tokens: media.videoTokens,
        total_tokens: promptTokens + media.imageTokens + media.videoTokens,
      },
    };
  }
}
