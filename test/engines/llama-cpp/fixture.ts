import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatEngine, ChatRequest, ChatStreamPart } from '../../../src/engines/chat/types.js';
import { type TestModelPaths, writeTestModels } from '../../../src/test-models/write-test-models.js';

export async function tempModels(): Promise<{ paths: TestModelPaths; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'llama-cpp-engine-'));
  return { paths: await writeTestModels(dir), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    messages: [{ role: 'user', content: 'Hi!' }],
    tools: [],
    sampling: { temperature: 0.7, topP: 0.9, greedy: true },
    maxTokens: 200,
    stop: [],
    responseFormat: 'text',
    thinking: true,
    ...overrides,
  };
}

export async function collect(
  engine: ChatEngine,
  req: ChatRequest,
  signal = new AbortController().signal,
): Promise<ChatStreamPart[]> {
  const parts: ChatStreamPart[] = [];
  for await (const part of engine.generate(req, signal)) parts.push(part);
  return parts;
}

export const textOf = (parts: ChatStreamPart[], type: 'text-delta' | 'reasoning-delta' = 'text-delta') =>
  parts.map((p) => (p.type === type ? p.text : '')).join('');

export function finishOf(parts: ChatStreamPart[]) {
  const last = parts.at(-1);
  if (last?.type !== 'finish') throw new Error(`no finish part: ${JSON.stringify(parts)}`);
  return last;
}

export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
