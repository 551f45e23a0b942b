import type { ReplyIdentity } from '../../api/reply-identity.js';
import type { TokenizerBody } from '../../api/tokenizer.js';
import type { ChatService } from '../chat/chat-service.js';
import { functionTools, mapMessages } from '../chat/map-request.js';
import { countMedia, visionRuleFor } from './media/media-counter.js';
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
 * Counts with the serving model's own tokenizer and chat template, tools included (decisions.md §4);
 * image and video tokens by the model's formula (media/formula.ts, docs/tokenizer.md).
 */
export class TokenizerService {
  constructor(
    private readonly chat: ChatService,
    private readonly media: MediaOptions = {},
  ) {}

  /** `signal` aborts when the client goes away: media fetches stop with it. */
  async count(body: TokenizerBody, identity: ReplyIdentity, signal?: AbortSignal): Promise<TokenizerReply> {
    const engine = await this.chat.engineFor(body.model);
    const media = await countMedia(body.messages, body.model, visionRuleFor(body.model), this.media, signal);
    // Media items are gone, so the engine counts text whether or not it has vision itself.
    const messages = mapMessages(textOnly(body.messages), false, true);
    const promptTokens = await engine.countTokens(messages, functionTools({ tools: body.tools }));
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
