import { afterEach, describe, expect, it } from 'vitest';
import { createDeploymentPool } from '../../../src/engines/chat/pool.js';
import type { ChatEngine, ChatStreamPart } from '../../../src/engines/chat/types.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { capabilities, chatRequest, collect, collectUntilError, engineFor, textOf } from './helpers.js';
import { json, ReplayServer, sse, sseEvents } from './replay-server.js';

const signal = () => new AbortController().signal;
const FINISH: ChatStreamPart = {
  type: 'finish',
  reason: 'stop',
  usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0, reasoningTokens: 0 },
};

/** An engine-neutral stand-in: yields `text` then finishes, or fails as told. */
class FakeEngine implements ChatEngine {
  calls = 0;
  closed = false;
  failWith: Error | undefined;
  /** Resolves to release a generation that is in flight. */
  gate: Promise<void> | undefined;
  readonly capabilities = { ...capabilities };

  constructor(readonly text: string) {}

  async *generate(): AsyncGenerator<ChatStreamPart> {
    this.calls++;
    if (this.failWith) throw this.failWith;
    yield { type: 'text-delta', text: this.text };
    if (this.gate) await this.gate;
    yield FINISH;
  }
  async countTokens(): Promise<number> {
    if (this.failWith) throw this.failWith;
    return this.text.length;
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

const backendDown = () => new ApiError(1234, 'Upstream model server failure: upstream answered HTTP 503');

describe('deployment pool with real upstream engines', () => {
  const servers: ReplayServer[] = [];
  const engines: ChatEngine[] = [];
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  async function upstream(handler: Parameters<typeof ReplayServer.start>[0]): Promise<ReplayServer> {
    const server = await ReplayServer.start(handler);
    servers.push(server);
    engines.push(engineFor(server.url));
    return server;
  }

  it('fails over before the first part, then skips the unhealthy deployment', async () => {
    const broken = await upstream(() => json(500, 'vllm-error-500.json'));
    const healthy = await upstream(() => sse('ollama-reasoning.sse'));
    const pool = createDeploymentPool(engines);
    for (let i = 0; i < 4; i++) {
      const parts = await collect(pool.generate(chatRequest(), signal()));
      expect(textOf(parts, 'text-delta')).toBe('Hello! Ça va 😊 How can I help?');
    }
    expect(broken.requests).toHaveLength(1);
    expect(healthy.requests).toHaveLength(4);
  });

  it('fails over when a deployment refuses connections', async () => {
    await upstream(() => sse('vllm-reasoning.sse'));
    const dead = servers[0]!;
    await dead.close();
    const healthy = await upstream(() => sse('ollama-length.sse'));
    const pool = createDeploymentPool(engines);
    const parts = await collect(pool.generate(chatRequest(), signal()));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', reason: 'length' });
    expect(healthy.requests).toHaveLength(1);
  });

  it('does not retry once a part has been yielded: the mid-stream error propagates', async () => {
    const cut = await upstream(() => ({ pieces: sseEvents('vllm-reasoning.sse').slice(0, 6), cut: true }));
    const other = await upstream(() => sse('ollama-reasoning.sse'));
    const pool = createDeploymentPool(engines); // equally idle: the first request goes to the first
    const { parts, error } = await collectUntilError(pool.generate(chatRequest(), signal()));
    expect(textOf(parts, 'reasoning-delta')).toBe('Okay, the user greets me');
    expect((error as ApiError).code).toBe(1234);
    expect(cut.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
    // The broken deployment cools down: the next request goes elsewhere.
    await collect(pool.generate(chatRequest(), signal()));
    expect(other.requests).toHaveLength(1);
    expect(cut.requests).toHaveLength(1);
  });

  it('propagates a prompt-too-long error without trying another deployment', async () => {
    const a = await upstream(() => json(400, 'vllm-error-context.json'));
    const b = await upstream(() => json(400, 'vllm-error-context.json'));
    const pool = createDeploymentPool(engines);
    const { error } = await collectUntilError(pool.generate(chatRequest(), signal()));
    expect((error as ApiError).code).toBe(1261);
    expect(a.requests.length + b.requests.length).toBe(1);
  });

  it('neither retries nor marks unhealthy a request the upstream refused with a 4xx', async () => {
    const refusing = await upstream(() => ({
      status: 400,
      contentType: 'application/json',
      pieces: ['{"object":"error","message":"stop: too many entries","type":"BadRequestError","code":400}'],
    }));
    const other = await upstream(() => sse('ollama-length.sse'));
    const pool = createDeploymentPool(engines);
    const { error } = await collectUntilError(pool.generate(chatRequest(), signal()));
    expect((error as ApiError).code).toBe(1234);
    expect((error as ApiError).message).toContain('HTTP 400');
    expect(other.requests).toHaveLength(0);
    // Still in rotation: the next two requests are shared between both deployments.
    refusing.setHandler(() => sse('ollama-length.sse'));
    await collect(pool.generate(chatRequest(), signal()));
    await collect(pool.generate(chatRequest(), signal()));
    expect(refusing.requests).toHaveLength(2);
    expect(other.requests).toHaveLength(1);
  });

  it('throws the last error when every deployment fails', async () => {
    const a = await upstream(() => json(500, 'vllm-error-500.json'));
    const b = await upstream(() => json(429, 'hosted-error-429.json'));
    const pool = createDeploymentPool(engines);
    const { parts, error } = await collectUntilError(pool.generate(chatRequest(), signal()));
    expect(parts).toEqual([]);
    expect((error as ApiError).code).toBe(1234);
    expect(a.requests.length + b.requests.length).toBe(2);
  });
});

describe('deployment pool, engine-neutral', () => {
  it('spreads concurrent requests by fewest in flight', async () => {
    const engines = [new FakeEngine('a'), new FakeEngine('b'), new FakeEngine('c')];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (const e of engines) e.gate = gate;
    const pool = createDeploymentPool(engines);
    const running = Array.from({ length: 6 }, () => collect(pool.generate(chatRequest(), signal())));
    await new Promise((resolve) => setImmediate(resolve));
    expect(engines.map((e) => e.calls)).toEqual([2, 2, 2]);
    release();
    await Promise.all(running);
  });

  it('takes deployments in turn when they are equally busy', async () => {
    const engines = [new FakeEngine('a'), new FakeEngine('b'), new FakeEngine('c')];
    const pool = createDeploymentPool(engines);
    const texts: string[] = [];
    for (let i = 0; i < 6; i++) texts.push(textOf(await collect(pool.generate(chatRequest(), signal())), 'text-delta'));
    expect(texts).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('skips a failed deployment for the cool-down, then tries it again', async () => {
    let now = 1_000;
    const [a, b] = [new FakeEngine('a'), new FakeEngine('b')];
    a.failWith = backendDown();
    const pool = createDeploymentPool([a, b], { cooldownMs: 5_000, now: () => now });
    for (let i = 0; i < 3; i++) await collect(pool.generate(chatRequest(), signal()));
    expect([a.calls, b.calls]).toEqual([1, 3]);
    a.failWith = undefined;
    now += 5_001;
    const texts: string[] = [];
    for (let i = 0; i < 2; i++) texts.push(textOf(await collect(pool.generate(chatRequest(), signal())), 'text-delta'));
    expect(texts.sort()).toEqual(['a', 'b']);
  });

  it('still tries cooling-down deployments when no healthy one is left', async () => {
    const [a, b] = [new FakeEngine('a'), new FakeEngine('b')];
    a.failWith = backendDown();
    b.failWith = backendDown();
    const pool = createDeploymentPool([a, b]);
    await collectUntilError(pool.generate(chatRequest(), signal()));
    b.failWith = undefined;
    const parts = await collect(pool.generate(chatRequest(), signal()));
    expect(textOf(parts, 'text-delta')).toBe('b');
  });

  it('does not retry errors that are not retryable, nor aborts', async () => {
    const [a, b] = [new FakeEngine('a'), new FakeEngine('b')];
    a.failWith = new ApiError(1214, 'Invalid messages');
    b.failWith = new ApiError(1214, 'Invalid messages');
    const pool = createDeploymentPool([a, b]);
    const { error } = await collectUntilError(pool.generate(chatRequest(), signal()));
    expect((error as ApiError).code).toBe(1214);
    expect(a.calls + b.calls).toBe(1);

    const controller = new AbortController();
    controller.abort();
    a.failWith = backendDown();
    b.failWith = backendDown();
    await collectUntilError(pool.generate(chatRequest(), controller.signal));
    expect(a.calls + b.calls).toBe(2);
  });

  it('counts tokens on a healthy deployment, fails over, and closes every deployment', async () => {
    const [a, b] = [new FakeEngine('aaaa'), new FakeEngine('bb')];
    a.failWith = backendDown();
    const pool = createDeploymentPool([a, b]);
    expect(await pool.countTokens([], [])).toBe(2);
    await pool.close();
    expect(a.closed && b.closed).toBe(true);
  });

  it('is the engine itself when there is only one deployment', () => {
    const only = new FakeEngine('a');
    expect(createDeploymentPool([only])).toBe(only);
  });

  it('declares only what every deployment can do', () => {
    const [a, b] = [new FakeEngine('a'), new FakeEngine('b')];
    Object.assign(b.capabilities, { vision: true, maxContext: 4096, tools: false });
    const pool = createDeploymentPool([a, b]);
    expect(pool.capabilities).toMatchObject({ vision: false, tools: false, maxContext: 4096, thinking: true });
  });

  it('lets the engine release its request when the consumer stops early', async () => {
    let released = false;
    const engine: ChatEngine = {
      capabilities,
      async *generate() {
        try {
          yield { type: 'text-delta', text: 'x' };
          yield FINISH;
        } finally {
          released = true;
        }
      },
      countTokens: async () => 0,
      close: async () => {},
    };
    const pool = createDeploymentPool([engine, new FakeEngine('b')]);
    for await (const _part of pool.generate(chatRequest(), signal())) break;
    expect(released).toBe(true);
  });
});
