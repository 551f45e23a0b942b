import { describe, expect, it } from 'vitest';
import { capGate } from '../../../src/engines/chat/deployment-cap.js';
import { createDeploymentPool } from '../../../src/engines/chat/pool.js';
import type { ChatEngine, ChatRequest, ChatStreamPart } from '../../../src/engines/chat/types.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { RequestCancel } from '../../../src/util/cancel-signal.js';
import { capabilities, chatRequest, collect } from '../openai-compatible/helpers.js';

const FINISH: ChatStreamPart = {
  type: 'finish',
  reason: 'stop',
  usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0, reasoningTokens: 0 },
};

/** Records the tenant of each generation it starts; each runs until `finishOne` lets the oldest end. */
class HeldEngine implements ChatEngine {
  readonly started: string[] = [];
  private readonly holds: (() => void)[] = [];
  readonly capabilities = { ...capabilities };

  constructor(readonly name: string) {}

  async *generate(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    this.started.push(request.tenant ?? '');
    await new Promise<void>((resolve) => this.holds.push(resolve));
    yield { type: 'text-delta', text: this.name };
    yield FINISH;
  }
  get running(): number {
    return this.holds.length;
  }
  finishOne(): void {
    this.holds.shift()?.();
  }
  async countTokens(): Promise<number> {
    return 1;
  }
  async close(): Promise<void> {}
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const never = () => new AbortController().signal;
const asTenant = (tenant: string) => chatRequest({ tenant });

describe('deployment pool with a concurrency cap', () => {
  it('holds a single deployment to its cap and serves the waiting requests key by key', async () => {
    const engine = new HeldEngine('a');
    const pool = createDeploymentPool([engine], { gates: [capGate({ max_concurrent: 2 })] });
    expect(pool).not.toBe(engine);
    const runs = Array.from({ length: 6 }, () => collect(pool.generate(asTenant('burst'), never())));
    await turn();
    runs.push(collect(pool.generate(asTenant('lone'), never())));
    await turn();
    expect(engine.running).toBe(2);
    expect(pool.stats?.().waiting).toBe(5);
    // The burst took both places at once: the lone key's request is the next to start.
    engine.finishOne();
    await turn();
    expect(engine.started).toEqual(['burst', 'burst', 'lone']);
    while (engine.running > 0) {
      engine.finishOne();
      await turn();
    }
    await Promise.all(runs);
    expect(engine.started).toHaveLength(7);
  });

  it('sends to a deployment with room before one at its cap', async () => {
    const capped = new HeldEngine('capped');
    const free = new HeldEngine('free');
    const pool = createDeploymentPool([capped, free], { gates: [capGate({ max_concurrent: 1 }), undefined] });
    const runs = Array.from({ length: 4 }, () => collect(pool.generate(asTenant('k'), never())));
    await turn();
    expect([capped.started.length, free.started.length]).toEqual([1, 3]);
    for (let i = 0; i < 4; i++) {
      capped.finishOne();
      free.finishOne();
      await turn();
    }
    await Promise.all(runs);
  });

  it('refuses with 1305 when the line is full, and a request whose client leaves while waiting never starts', async () => {
    const engine = new HeldEngine('a');
    const pool = createDeploymentPool([engine], { gates: [capGate({ max_concurrent: 1, max_waiting: 1 })] });
    const first = collect(pool.generate(asTenant('k'), never()));
    const cancel = new RequestCancel();
    const leaving = collect(pool.generate(asTenant('k'), cancel));
    await turn();
    const refused = await collect(pool.generate(asTenant('k'), never())).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 1305, retryAfter: 1 });
    cancel.abort();
    expect(await leaving).toEqual([]);
    engine.finishOne();
    await first;
    expect(engine.started).toEqual(['k']);
    expect(pool.stats?.()).toMatchObject({ inFlight: 0, waiting: 0 });
  });
});
