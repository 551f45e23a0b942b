import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { ChatEngineFactory, EngineContext } from '../../../src/engines/chat/factory.js';
import type { ChatEngine } from '../../../src/engines/chat/types.js';
import { EngineDirectory } from '../../../src/services/chat/engine-directory.js';
import { ScriptedChatEngine, scriptedDirectory } from '../../helpers/scripted-chat-engine.js';

const context: EngineContext = {
  modelsDir: '/nonexistent',
  configDir: '/nonexistent',
  defaultThreads: 1,
  promptCacheBytes: 0,
  tokenizerQueueSize: 16,
  log: { info() {}, warn() {}, error() {} },
};

type Deployments = ConstructorParameters<typeof EngineDirectory>[0];

/** A factory whose `create` fails the first `failures` times, counting its calls. */
function countingFactory(failures = 0) {
  const made: ChatEngine[] = [];
  let calls = 0;
  const factory: ChatEngineFactory = {
    schema: Type.Object({ engine: Type.Literal('scripted') }),
    async create() {
      calls++;
      if (calls <= failures) throw new Error('cannot open');
      const engine = new ScriptedChatEngine();
      made.push(engine);
      return engine;
    },
  };
  return { factory, made, calls: () => calls };
}

const deployment = (factory: ChatEngineFactory, identity: string, code: string) => ({
  factory,
  options: { engine: 'scripted' },
  identity,
  label: `${code}[0]`,
  cap: {},
});

describe('EngineDirectory', () => {
  it('answers which codes it serves, and nothing for another', () => {
    const directory = scriptedDirectory({ 'gen-4.6': new ScriptedChatEngine() });
    expect(directory.has('gen-4.6')).toBe(true);
    expect(directory.has('gen-4.5')).toBe(false);
    expect(directory.codes()).toEqual(['gen-4.6']);
    expect(directory.get('gen-4.5')).toBeUndefined();
  });

  it('creates an engine on first use, once, shared by the codes whose deployments are equal', async () => {
    const { factory, made, calls } = countingFactory();
    const deployments: Deployments = new Map([
      ['gen-4.6', [deployment(factory, 'same', 'gen-4.6')]],
      ['gen-4.5', [deployment(factory, 'same', 'gen-4.5')]],
    ]);
    const directory = new EngineDirectory(deployments, context);
    expect(calls()).toBe(0);
    const [a, b, c] = await Promise.all([directory.get('gen-4.6'), directory.get('gen-4.6'), directory.get('gen-4.5')]);
    expect(calls()).toBe(1);
    expect(a).toBe(made[0]);
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(directory.state('gen-4.6')).toEqual({ state: 'ready' });
  });

  it('forgets a failed creation, so that the next call tries again', async () => {
    const { factory, calls } = countingFactory(1);
    const directory = new EngineDirectory(new Map([['gen-4.6', [deployment(factory, 'x', 'gen-4.6')]]]), context);
    // The cause is logged; the caller learns only that the deployment could not be opened.
    await expect(directory.get('gen-4.6')).rejects.toThrow('its deployment could not be opened');
    await expect(directory.get('gen-4.6')).resolves.toBeDefined();
    expect(calls()).toBe(2);
  });

  it('pools several deployments of one code behind one engine', async () => {
    const { factory, made } = countingFactory();
    const directory = new EngineDirectory(
      new Map([['gen-4.6', [deployment(factory, 'a', 'gen-4.6'), deployment(factory, 'b', 'gen-4.6')]]]),
      context,
    );
    const pool = await directory.get('gen-4.6');
    expect(made).toHaveLength(2);
    expect(made).not.toContain(pool);
  });

  it('closes the engines it made', async () => {
    const engine = new ScriptedChatEngine();
    const directory = scriptedDirectory({ 'gen-4.6': engine });
    await directory.get('gen-4.6');
    await directory.close();
    expect(engine.closed).toBe(true);
  });
});
