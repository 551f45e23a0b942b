import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTestModels } from '../../src/test-models/write-test-models.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { deployment } from './support.js';

export interface AgentApp {
  t: TestApp;
  base: string;
  close(): Promise<void>;
}

/** An app whose gen-4.7 (the agent's default code) runs the programmed test model. */
export async function startAgentApp(
  agents: Record<string, unknown> = {},
  options: { listen?: boolean; deployment?: Record<string, unknown> } = {},
): Promise<AgentApp> {
  const dir = await mkdtemp(join(tmpdir(), 'agents-models-'));
  const paths = await writeTestModels(dir);
  const t = await createTestApp({
    models: {
      'gen-4.7': deployment(paths.programmed, options.deployment),
      'gen-5': deployment(paths.thinking, options.deployment),
    },
    agents: { general_translation: agents },
  });
  const base = options.listen ? await t.app.listen({ port: 0, host: '127.0.0.1' }) : '';
  return {
    t,
    base,
    async close() {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const TEXT = 'The weather is lovely today.\n\nLet us walk.';

export const agentBody = (vars: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  agent_id: 'general_translation',
  messages: [{ role: 'user', content: [{ type: 'text', text: TEXT }] }],
  custom_variables: { source_lang: 'en', target_lang: 'fr', ...vars },
  ...extra,
});

export interface AgentUsageWire {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  total_calls: number;
}
export interface AgentReply {
  id: string;
  conversation_id: string;
  choices: { finish_reason: string; messages: { content: { text: string } }[] }[];
  usage: AgentUsageWire;
}

/** The `data:` frames of an agent stream, parsed, and whether it ended with `[DONE]`. */
export function parseStream(text: string): { chunks: Record<string, unknown>[]; done: boolean } {
  const frames = text.split('\n\n').filter(Boolean);
  const done = frames.at(-1) === 'data: [DONE]';
  const chunks = frames.filter((f) => f !== 'data: [DONE]').map((f) => JSON.parse(f.replace(/^data: /, '')));
  return { chunks, done };
}
