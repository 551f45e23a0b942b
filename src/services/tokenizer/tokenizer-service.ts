import type { TokenizerBody } from '../../api/tokenizer.js';
import { newPlatformId, unixSeconds } from '../../server/ids.js';
import type { ChatService } from '../chat/chat-service.js';
import { functionTools, mapMessages } from '../chat/map-request.js';

export interface TokenizerReply {
  id: string;
  created: number;
  request_id: string;
  usage: { prompt_tokens: number; image_tokens: number; video_tokens: number; total_tokens: number };
}

/** Counts with the serving model's own tokenizer and chat template, tools included (decisions.md §4). */
export class TokenizerService {
  constructor(private readonly chat: ChatService) {}

  async count(body: TokenizerBody, clientRequestId: string | undefined): Promise<TokenizerReply> {
    const engine = await this.chat.engineFor(body.model);
    const messages = mapMessages(body.messages, false, engine.capabilities.vision);
    const promptTokens = await engine.countTokens(messages, functionTools({ tools: body.tools }));
    const id = newPlatformId();
    return {
      id,
      created: unixSeconds(),
      request_id: clientRequestId ?? id,
      usage: { prompt_tokens: promptTokens, image_tokens: 0, video_tokens: 0, total_tokens: promptTokens },
    };
  }
}
