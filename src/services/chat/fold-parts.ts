import type { ChatStreamPart, ChatUsage, FinishReason } from '../../engines/chat/types.js';
import { upstreamFailure } from '../../errors/errors.js';
import { wireUsage } from './usage.js';
import type { ChatCompletion, CompletionIdentity, WireToolCall } from './wire-types.js';

/**
 * The non-stream reply: the same parts a stream would carry, folded into one message. `onUsage`
 * hears the finish part's usage as it comes.
 */
export async function foldParts(
  parts: AsyncIterable<ChatStreamPart>,
  identity: CompletionIdentity,
  onUsage?: (usage: ChatUsage) => void,
): Promise<ChatCompletion> {
  let content = '';
  let reasoning = '';
  const calls = new Map<number, WireToolCall>();
  let finish: { reason: FinishReason; usage: ChatUsage } | undefined;
  for await (const part of parts) {
    switch (part.type) {
      case 'reasoning-delta':
        reasoning += part.text;
        break;
      case 'text-delta':
        content += part.text;
        break;
      case 'tool-call-start':
        calls.set(part.index, {
          id: part.id,
          index: part.index,
          type: 'function',
          function: { name: part.name, arguments: '' },
        });
        break;
      case 'tool-call-delta': {
        const call = calls.get(part.index);
        if (call) call.function.arguments += part.argumentsDelta;
        break;
      }
      case 'tool-call-end':
        break;
      case 'finish':
        finish = { reason: part.reason, usage: part.usage };
        onUsage?.(part.usage);
    }
  }
  // An engine that ends without a finish part was cut off (abort, lost upstream).
  if (!finish) throw upstreamFailure('The model stopped without finishing its reply');
  const message: ChatCompletion['choices'][0]['message'] = { role: 'assistant', content };
  if (reasoning) message.reasoning_content = reasoning;
  if (calls.size > 0) message.tool_calls = [...calls.values()].sort((a, b) => a.index - b.index);
  return {
    id: identity.id,
    request_id: identity.requestId,
    created: identity.created,
    object: 'chat.completion',
    model: identity.model,
    choices: [{ index: 0, finish_reason: finish.reason, message }],
    usage: wireUsage(finish.usage),
  };
}
