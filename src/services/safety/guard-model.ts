import type { ChatEngine, ChatMessage } from '../../engines/chat/types.js';
import type { GuardClassifier } from './types.js';

/**
 * A guard model behind the chat-engine seam: the text goes in as the conversation the guard's own
 * chat template expects (Llama Guard and Qwen3Guard build their policy prompt in the template), and
 * the verdict is read from the greedy answer.
 */
export function guardClassifier(engine: () => Promise<ChatEngine>, maxTokens: number): GuardClassifier {
  return async (text, stage, signal, tenant) => {
    const messages: ChatMessage[] =
      stage === 'assistant'
        ? [
            { role: 'user', content: '' },
            { role: 'assistant', content: text },
          ]
        : [{ role: 'user', content: text }];
    const parts = (await engine()).generate(
      {
        messages,
        tools: [],
        sampling: { temperature: 0, topP: 1, greedy: true },
        maxTokens,
        stop: [],
        responseFormat: 'text',
        thinking: false,
        tenant,
      },
      signal,
    );
    let answer = '';
    for await (const part of parts) if (part.type === 'text-delta') answer += part.text;
    return answer;
  };
}
