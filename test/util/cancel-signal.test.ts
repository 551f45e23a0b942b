import { describe, expect, it } from 'vitest';
import { abortSignalOf, type CancelSignal, RequestCancel } from '../../src/util/cancel-signal.js';

/**
 * Every seam takes either an AbortSignal or the edge's cheaper RequestCancel (CancelSignal):
 * one suite, run against both, holds them to the same behaviour.
 */
const kinds: [string, () => { signal: CancelSignal; abort(reason?: unknown): void }][] = [
  [
    'AbortSignal',
    () => {
      const controller = new AbortController();
      return { signal: controller.signal, abort: (reason) => controller.abort(reason) };
    },
  ],
  [
    'RequestCancel',
    () => {
      const cancel = new RequestCancel();
      return { signal: cancel, abort: (reason) => cancel.abort(reason) };
    },
  ],
];

describe.each(kinds)('CancelSignal: %s', (_name, make) => {
  it('runs each listener once, functions and handleEvent objects alike, with the reason set', () => {
    const { signal, abort } = make();
    const seen: string[] = [];
    signal.addEventListener('abort', () => seen.push(`fn:${String(signal.reason)}`), { once: true });
    signal.addEventListener('abort', { handleEvent: () => seen.push(`obj:${signal.aborted}`) });
    expect(signal.aborted).toBe(false);
    abort('gone');
    abort('again');
    expect(seen).toEqual(['fn:gone', 'obj:true']);
    expect(signal.reason).toBe('gone');
  });

  it('does not run a removed listener, nor one added after the abort', () => {
    const { signal, abort } = make();
    const seen: string[] = [];
    const removed = { handleEvent: () => seen.push('removed') };
    signal.addEventListener('abort', removed, { once: true });
    signal.removeEventListener('abort', removed);
    abort();
    signal.addEventListener('abort', () => seen.push('late'));
    expect(seen).toEqual([]);
  });

  it('aborts with an AbortError when given no reason', () => {
    const { signal, abort } = make();
    abort();
    expect(signal.reason).toBeInstanceOf(DOMException);
    expect((signal.reason as DOMException).name).toBe('AbortError');
  });
});

describe('RequestCancel.signal', () => {
  it('is a real AbortSignal that aborts with it, made before or after the abort', () => {
    const early = new RequestCancel();
    const before = early.signal;
    expect(before).toBeInstanceOf(AbortSignal);
    expect(early.signal).toBe(before);
    early.abort('bye');
    expect(before.aborted).toBe(true);
    expect(before.reason).toBe('bye');

    const late = new RequestCancel();
    late.abort('gone');
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe('gone');
  });
});

describe('abortSignalOf', () => {
  it("is the signal itself for an AbortSignal, and the RequestCancel's own for one", () => {
    const controller = new AbortController();
    expect(abortSignalOf(controller.signal)).toBe(controller.signal);
    const cancel = new RequestCancel();
    expect(abortSignalOf(cancel)).toBe(cancel.signal);
  });

  it('follows any other CancelSignal, aborted before or after, with its reason', () => {
    const before = new RequestCancel();
    before.abort('early');
    const plain: CancelSignal = {
      aborted: before.aborted,
      reason: before.reason,
      addEventListener: () => {},
      removeEventListener: () => {},
    };
    expect(abortSignalOf(plain).reason).toBe('early');
    const inner = new RequestCancel();
    const wrapped: CancelSignal = {
      get aborted() {
        return inner.aborted;
      },
      get reason() {
        return inner.reason;
      },
      addEventListener: (type, listener) => inner.addEventListener(type, listener),
      removeEventListener: (type, listener) => inner.removeEventListener(type, listener),
    };
    const signal = abortSignalOf(wrapped);
    expect(signal.aborted).toBe(false);
    inner.abort('late');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('late');
  });
});
