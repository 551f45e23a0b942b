import {
  createOpenAICompatibleEngine,
  type OpenAICompatibleOptions,
} from '../../../src/engines/chat/openai-compatible/index.js';
import type { ChatEngine, ChatRequest, ChatStreamPart } from '../../../src/engines/chat/types.js';

export const capabilities = {
  tools: true,
  thinking: true,
  json: true,
  vision: false,
  maxContext: 32_768,
  maxOutput: 8_192,
};

export function engineFor(url: string, extra: Partial<OpenAICompatibleOptions> = {}): ChatEngine {
  return createOpenAICompatibleEngine({ baseUrl: `${url}/v1`, model: 'Qwen/Qwen3-8B', capabilities, ...extra });
}

export function chatRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    messages: [{ role: 'user', content: 'Hello!' }],
    tools: [],
    sampling: { temperature: 0.6, topP: 0.95, greedy: false },
    maxTokens: 1024,
    stop: [],
    responseFormat: 'text',
    thinking: true,
    ...overrides,
  };
}

export async function collect(parts: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const out: ChatStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

/** Collects until the iterator throws; returns what came before and the error. */
export async function collectUntilError(
  parts: AsyncIterable<ChatStreamPart>,
): Promise<{ parts: ChatStreamPart[]; error: unknown }> {
  const out: ChatStreamPart[] = [];
  try {
    for await (const part of parts) out.push(part);
  } catch (error) {
    return { parts: out, error };
  }
  return { parts: out, error: undefined };
}

export const textOf = (parts: ChatStreamPart[], type: 'text-delta' | 'reasoning-delta'): string =>
  parts.map((p) => (p.type === type ? p.text : '')).join('');
