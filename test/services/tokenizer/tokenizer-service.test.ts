import { describe, expect, it } from 'vitest';
import type { ReplyIdentity } from '../../../src/api/reply-identity.js';
import type { TokenizerBody } from '../../../src/api/tokenizer.js';
import type { ChatMessage } from '../../../src/engines/chat/types.js';
import type { ChatService } from '../../../src/services/chat/chat-service.js';
import { TokenizerService } from '../../../src/services/tokenizer/tokenizer-service.js';
import { SCRIPTED_CAPABILITIES, ScriptedChatEngine, scriptedChatService } from '../../helpers/scripted-chat-engine.js';
import { apiError, dataUrl, pngBytes } from './fixtures.js';

/** An engine without vision that counts one token per character of the messages it is given. */
function fakeChat(seen: ChatMessage[][]): ChatService {
  const engine = new ScriptedChatEngine({ ...SCRIPTED_CAPABILITIES, thinking: false, vision: false }, (messages) => {
    seen.push(messages);
    return JSON.stringify(messages).length;
  });
  return scriptedChatService(engine);
}

const identity = (requestId = '202611210518000123456789abcdef'): ReplyIdentity => ({
  id: '202611210518000123456789abcdef',
  created: 1_763_702_280,
  requestId,
});

const body = (model: TokenizerBody['model'], url: string): TokenizerBody => ({
  model,
  messages: [
    { role: 'system', content: 'Describe images.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url } },
      ],
    },
    { role: 'user', content: [{ type: 'image_url', image_url: { url } }] },
  ],
});

describe('TokenizerService', () => {
  it('counts text without the media items, adds image tokens, and sums the total', async () => {
    const seen: ChatMessage[][] = [];
    const service = new TokenizerService(fakeChat(seen));
    const reply = await service.count(
      body('gen-4.6v', dataUrl('image/png', pngBytes(640, 480))),
      identity('req-123456'),
    );
    expect(seen[0]).toEqual([
      { role: 'system', content: 'Describe images.' },
      { role: 'user', content: [{ type: 'text', text: 'What is this?' }] },
      { role: 'user', content: '' },
    ]);
    const { prompt_tokens, image_tokens, video_tokens, total_tokens } = reply.usage;
    expect(prompt_tokens).toBe(JSON.stringify(seen[0]).length);
    expect(image_tokens).toBe(2 * (23 * 17 + 2));
    expect(video_tokens).toBe(0);
    expect(total_tokens).toBe(prompt_tokens + image_tokens + video_tokens);
    expect(reply.request_id).toBe('req-123456');
  });

  it('refuses images on a model without vision, before counting text', async () => {
    const seen: ChatMessage[][] = [];
    const service = new TokenizerService(fakeChat(seen), { allowHosts: [] });
    await apiError(
      service.count(body('gen-4.6', dataUrl('image/png', pngBytes(4, 4))), identity()),
      1214,
      'messages[1].content[1]',
      'does not accept image_url input',
    );
    expect(seen).toEqual([]);
  });
});
