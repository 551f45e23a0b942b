import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest, ChatStreamPart } from '../../src/engines/chat/types.js';
import { ApiError } from '../../src/errors/api-error.js';
import { RequestCancel } from '../../src/util/cancel-signal.js';

export interface ChatEngineContractOptions {
  /** The engine passes upstream tool-call ids through instead of issuing `call_<24 hex>`. */
  toolCallIdsPassedThrough?: boolean;
  /** How long an aborted generation may take to end. Default 2 s. */
  abortWithinMs?: number;
}

const TOOL = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    messages: [{ role: 'user', content: 'Say hello in one short sentence.' }],
    tools: [],
    sampling: { temperature: 0.7, topP: 0.9, greedy: true },
    maxTokens: 64,
    stop: [],
    responseFormat: 'text',
    thinking: true,
    ...overrides,
  };
}

async function collect(parts: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const out: ChatStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

/** Settles with 'settled' when `promise` does, or 'timeout' after `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<'settled' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  const settled = promise.then(
    () => 'settled' as const,
    () => 'settled' as const,
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The two kinds of CancelSignal a caller passes: each has `signal` to pass and `abort()`. */
export const CANCELLERS: [string, () => { signal: AbortSignal | RequestCancel; abort(reason?: unknown): void }][] = [
  ['AbortSignal', () => new AbortController()],
  [
    'RequestCancel',
    () => {
      const cancel = new RequestCancel();
      return { signal: cancel, abort: (reason?: unknown) => cancel.abort(reason) };
    },
  ],
];

/** Checks the stream-part rules every engine keeps; exported for engine-specific tests too. */
export function expectWellFormed(parts: ChatStreamPart[], options: ChatEngineContractOptions = {}): void {
  const finishes = parts.filter((p) => p.type === 'finish');
  expect(finishes).toHaveLength(1);
  expect(parts.at(-1)?.type).toBe('finish');
  let textSeen = false;
  const calls = new Map<number, 'open' | 'ended'>();
  const ids = new Set<string>();
  for (const part of parts) {
    switch (part.type) {
      case 'text-delta':
        expect(typeof part.text).toBe('string');
        expect(part.text.length).toBeGreaterThan(0);
        textSeen = true;
        break;
      case 'reasoning-delta':
        expect(part.text.length).toBeGreaterThan(0);
        expect(textSeen, 'reasoning after text').toBe(false);
        break;
      case 'tool-call-start':
        expect(calls.has(part.index), `tool call ${part.index} started twice`).toBe(false);
        calls.set(part.index, 'open');
        if (options.toolCallIdsPassedThrough) expect(part.id.length).toBeGreaterThan(0);
        else expect(part.id).toMatch(/^call_[0-9a-f]{24}$/);
        expect(ids.has(part.id), 'tool-call ids are unique').toBe(false);
        ids.add(part.id);
        expect(typeof part.name).toBe('string');
        break;
      case 'tool-call-delta':
        expect(calls.get(part.index), `delta of tool call ${part.index} outside start..end`).toBe('open');
        break;
      case 'tool-call-end':
        expect(calls.get(part.index), `end of tool call ${part.index} without start`).toBe('open');
        calls.set(part.index, 'ended');
        break;
      case 'finish': {
        for (const [index, state] of calls) expect(state, `tool call ${index} never ended`).toBe('ended');
        const { usage } = part;
        for (const value of [usage.promptTokens, usage.completionTokens, usage.cachedTokens, usage.reasoningTokens]) {
          expect(Number.isInteger(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
        if (calls.size > 0) expect(part.reason).toBe('tool_calls');
        break;
      }
    }
  }
}

/** The suite every chat engine passes (docs/architecture.md, "Seams"): run it with a fresh engine per label. */
export function runChatEngineContract(
  label: string,
  setup: () => Promise<{ engine: ChatEngine; close(): Promise<void> }>,
  options: ChatEngineContractOptions = {},
): void {
  describe(`chat engine contract: ${label}`, () => {
    let context: { engine: ChatEngine; close(): Promise<void> };
    const abortWithinMs = options.abortWithinMs ?? 2_000;

    beforeAll(async () => {
      context = await setup();
    });
    afterAll(async () => {
      await context?.close();
    });

    it('declares sane capabilities', () => {
      const caps = context.engine.capabilities;
      expect(caps.maxContext).toBeGreaterThan(0);
      expect(caps.maxOutput).toBeGreaterThan(0);
      expect(caps.maxOutput).toBeLessThanOrEqual(caps.maxContext);
    });

    it('yields a well-formed reply that ends with exactly one finish part', async () => {
      const parts = await collect(context.engine.generate(request(), new AbortController().signal));
      expectWellFormed(parts, options);
    });

    it('puts every reasoning part before the first text part when thinking', async () => {
      const parts = await collect(context.engine.generate(request({ thinking: true }), new AbortController().signal));
      expectWellFormed(parts, options);
    });

    it('keeps tool-call parts well-formed when tools are offered', async () => {
      const parts = await collect(
        context.engine.generate(
          request({ tools: [TOOL], messages: [{ role: 'user', content: 'What is the weather in Paris?' }] }),
          new AbortController().signal,
        ),
      );
      expectWellFormed(parts, options);
    });

    it('calls a tool when toolChoice is required, the parts well-formed', async () => {
      const parts = await collect(
        context.engine.generate(
          request({ tools: [TOOL], toolChoice: 'required', parallelToolCalls: false }),
          new AbortController().signal,
        ),
      );
      expectWellFormed(parts, options);
      expect(parts.some((p) => p.type === 'tool-call-start')).toBe(true);
    });

    it('reports promptTokens equal to countTokens when the engine can count', async () => {
      const req = request({ tools: [TOOL] });
      let counted: number;
      try {
        counted = await context.engine.countTokens(req.messages, req.tools);
      } catch (err) {
        // An engine without a tokenizer says so with a coded error; anything else is a failure.
        expect(err).toBeInstanceOf(ApiError);
        return;
      }
      expect(Number.isInteger(counted)).toBe(true);
      const parts = await collect(context.engine.generate(req, new AbortController().signal));
      const finish = parts.at(-1);
      expect(finish?.type).toBe('finish');
      if (finish?.type === 'finish') expect(finish.usage.promptTokens).toBe(counted);
    });

    // The seam's one cancellation type is CancelSignal: the edge passes a RequestCancel, other
    // callers an AbortSignal; an engine must honour both.
    it.each(CANCELLERS)('ends promptly when the signal aborts mid-generation (%s)', async (_kind, make) => {
      const controller = make();
      const iterator = context.engine.generate(request({ maxTokens: 512 }), controller.signal)[Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(first.done).toBe(false);
      controller.abort();
      // Parts already produced may still come out; the iterator must end (or throw) soon after.
      const drained = (async () => {
        for (let i = 0; i < 10_000; i++) if ((await iterator.next()).done) return;
      })();
      expect(await within(drained, abortWithinMs)).toBe('settled');
    });

    it.each(CANCELLERS)('settles a count promptly when its signal aborts (%s)', async (_kind, make) => {
      const controller = make();
      const req = request({ tools: [TOOL] });
      const counting = context.engine.countTokens(req.messages, req.tools, controller.signal);
      controller.abort();
      // A count made in the process may finish; one that waits on a server ends with the signal.
      expect(
        await within(
          counting.catch(() => undefined),
          abortWithinMs,
        ),
      ).toBe('settled');
    });

    it('ends at once for a signal aborted before the call', async () => {
      const controller = new AbortController();
      controller.abort();
      const iterator = context.engine.generate(request(), controller.signal)[Symbol.asyncIterator]();
      expect(await within(iterator.next(), abortWithinMs)).toBe('settled');
    });

    it('serves the next request after a consumer stopped reading early', async () => {
      for await (const _part of context.engine.generate(request(), new AbortController().signal)) break;
      const parts = await collect(context.engine.generate(request(), new AbortController().signal));
      expectWellFormed(parts, options);
    });
  });
}
