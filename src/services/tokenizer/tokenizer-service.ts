import type { ReplyIdentity } from '../../api/reply-identity.js';
import type { TokenizerBody } from '../../api/tokenizer.js';
import { invalidField } from '../../errors/errors.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import type { ChatService } from '../chat/chat-service.js';
import { functionTools, mapMessages } from '../chat/map-request.js';
import { messageChars, type PromptBounds, promptCharLimit, toolChars } from '../chat/prompt-bounds.js';
import { CountTurns } from './count-turns.js';
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

/** Text past this many characters waits its turn to be counted (count-turns.ts). */
const LARGE_COUNT_CHARS = 16_384;

/**
 * The text to count within what the model's context can hold (`maxContext` tokens ×
 * `chat.max_chars_per_token`), or 1214 naming the field and the limit: said before any fetch or
 * tokenizing, so the work of one count is bounded by the model's context.
 */
export function checkCountSize(body: TokenizerBody, maxContext: number, bounds: PromptBounds): number {
  const limit = promptCharLimit(maxContext, bounds);
  const messages = messageChars(body.messages);
  const tools = toolChars(body.tools);
  if (messages + tools <= limit) return messages + tools;
  const field = messages > limit ? 'messages' : 'tools';
  throw invalidField(
    field,
    `the text to count is ${messages + tools} characters (messages ${messages}, tools ${tools}); ${body.model}'s context of ${maxContext} tokens allows at most ${limit} (chat.max_chars_per_token: ${bounds.maxCharsPerToken})`,
  );
}

/**
 * Counts with the serving model's own tokenizer and chat template, tools included (docs/wire.md, "Tokenizer");
 * image and video tokens by the model's formula (media/formula.ts, docs/tokenizer.md).
 */
export class TokenizerService {
  private readonly turns = new CountTurns();

  constructor(
    private readonly chat: ChatService,
    private readonly media: MediaOptions = {},
  ) {}

  /** `signal` aborts when the client goes away: media fetches and an upstream count stop with it. */
  async count(body: TokenizerBody, identity: ReplyIdentity, signal?: CancelSignal): Promise<TokenizerReply> {
    const rule = visionRuleFor(body.model);
    // Refusals that need neither the model nor a fetch come first; then the size the model's
    // context allows (the model loads on first use), then the media are fetched.
    checkMedia(body.messages, body.model, rule, this.media);
    const engine = await this.chat.engineFor(body.model); // its 1211, before any fetch
    const chars = checkCountSize(body, engine.capabilities.maxContext, this.chat.bounds);
    const media = await countMedia(body.messages, body.model, rule, this.media, signal);
    // Media items are gone, so the engine counts text whether or not it has vision itself.
    const messages = mapMessages(textOnly(body.messages), false, true);
    const tools = functionTools(body.tools);
    const count = () => engine.countTokens(messages, tools, signal);
    const promptTokens = chars > LARGE_COUNT_CHARS ? await this.turns.run(count, signal) : await count();
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
