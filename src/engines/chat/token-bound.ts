import { ApiError } from '../../errors/api-error.js';
import type { ChatEngine, ChatMessage, FunctionTool } from './types.js';

/**
 * Per message, what a chat template adds around the content (role markers, separators): generous,
 * so that the bound holds for the templates in use (ChatML adds 5 tokens a message).
 */
const TEMPLATE_TOKENS_PER_MESSAGE = 16;

const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * An upper bound of the prompt tokens of these messages that needs no tokenizer: the UTF-8 length of
 * their text (and of the tools' JSON), plus a template allowance per message. It holds for every
 * byte-level tokenizer (GPT-2/Llama 3/Qwen BPE, SentencePiece with byte fallback), whose tokens each
 * stand for at least one byte; for English text it is about 4× the exact count.
 */
export function tokenUpperBound(messages: ChatMessage[], tools: FunctionTool[] = []): number {
  let bytes = tools.length > 0 ? utf8Length(JSON.stringify(tools)) : 0;
  for (const message of messages) {
    bytes += TEMPLATE_TOKENS_PER_MESSAGE;
    const content = message.content;
    if (typeof content === 'string') bytes += utf8Length(content);
    else if (Array.isArray(content)) {
      for (const part of content) if (part.type === 'text') bytes += utf8Length(part.text);
    }
    if (message.role === 'assistant') {
      if (message.reasoning_content) bytes += utf8Length(message.reasoning_content);
      if (message.tool_calls) bytes += utf8Length(JSON.stringify(message.tool_calls));
    }
  }
  return bytes;
}

/**
 * For callers that need only a bound (cutting text into pieces that fit a context): the engine's
 * exact count where it has a tokenizer, else `tokenUpperBound`. The tokenizer endpoint never uses
 * this: it stays exact, and answers 1212 where it cannot be.
 */
export async function countTokensAtMost(
  engine: Pick<ChatEngine, 'countTokens'>,
  messages: ChatMessage[],
  tools: FunctionTool[] = [],
): Promise<number> {
  try {
    return await engine.countTokens(messages, tools);
  } catch (err) {
    // 1212: this engine cannot count (no tokenizer configured or found upstream).
    if (err instanceof ApiError && err.code === 1212) return tokenUpperBound(messages, tools);
    throw err;
  }
}

/**
 * A likely count of the prompt tokens of these messages where no tokenizer can say: a quarter of
 * `tokenUpperBound` (English text averages about four bytes a token with the byte-level BPE
 * vocabularies in use). For billing what an engine that cannot count used, never for a bound.
 */
export function tokenEstimate(messages: ChatMessage[], tools: FunctionTool[] = []): number {
  return Math.ceil(tokenUpperBound(messages, tools) / 4);
}
