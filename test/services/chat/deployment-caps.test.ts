import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { defineChatEngine, type EngineContext } from '../../../src/engines/chat/factory.js';
import type { ChatEngine } from '../../../src/engines/chat/types.js';
import { resolveDeployments } from '../../../src/services/chat/chat-deployments.js';
import { EngineDirectory } from '../../../src/services/chat/engine-directory.js';
import { capabilities } from '../../engines/openai-compatible/helpers.js';

/** An engine kind that records the options it was created with. */
const created: Record<string, unknown>[] = [];
const factories = {
  fake: defineChatEngine({
    schema: Type.Object({ engine: Type.Literal('fake'), name: Type.String() }, { additionalProperties: false }),
    async create(options): Promise<ChatEngine> {
      created.push(options);
      return {
        capabilities,
        async *generate() {},
        countTokens: async () => 0,
        close: async () => {},
      };
    },
  }),
};
const context: EngineContext = {
  modelsDir: tmpdir(),
  configDir: tmpdir(),
  defaultThreads: 1,
  promptCacheBytes: 0,
  tokenizerQueueSize: 16,
  log: { info() {}, warn() {}, error() {} },
};

const dirs: string[] = [];
afterEach(() => {
  created.length = 0;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function deploymentsOf(deployments: Record<string, unknown>[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'caps-'));
  dirs.push(dir);
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ embedded: { default_model: '' }, models: { 'gen-4.6': { deployments } } }));
  return resolveDeployments(loadConfig({ file, cwd: dir, env: {} }).config, factories);
}

describe('a chat deployment’s concurrency cap (max_concurrent, max_waiting)', () => {
  it('is taken apart from the engine’s options, and turns even a single deployment into a capped pool', async () => {
    const directory = new EngineDirectory(
      deploymentsOf([{ engine: 'fake', name: 'a', max_concurrent: 2, max_waiting: 4 }]),
      context,
    );
    const engine = await directory.get('gen-4.6');
    expect(created).toEqual([{ engine: 'fake', name: 'a' }]);
    expect(engine?.stats?.()).toMatchObject({ inFlight: 0, waiting: 0 });
    expect(directory.load()).toEqual([{ model: 'gen-4.6', inFlight: 0, waiting: 0, up: true }]);
  });

  it('leaves an uncapped single deployment as the engine itself', async () => {
    const directory = new EngineDirectory(deploymentsOf([{ engine: 'fake', name: 'a' }]), context);
    const engine = await directory.get('gen-4.6');
    expect(engine?.stats).toBeUndefined();
  });

  it('fails start-up naming the key and the rule', () => {
    expect(() => deploymentsOf([{ engine: 'fake', name: 'a', max_concurrent: 0 }])).toThrow(
      /models\.gen-4\.6\.deployments\[0\]\.max_concurrent: .*1/,
    );
    expect(() => deploymentsOf([{ engine: 'fake', name: 'a', max_concurrent: 1, max_waiting: -1 }])).toThrow(
      /models\.gen-4\.6\.deployments\[0\]\.max_waiting/,
    );
  });
});
