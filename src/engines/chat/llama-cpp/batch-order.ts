import type { BatchItem, LlamaContext, LlamaContextOptions, PrioritizedBatchItem } from 'node-llama-cpp';

/**
 * How the context's sequences are put into one decode, so that the tokens of a step run as one
 * matrix product instead of one product per sequence.
 *
 * llama.cpp keeps a KV cache of its own per sequence here (node-llama-cpp does not unify it), and
 * then decodes a batch in one pass only over sequences whose ids ascend by one in the order they
 * were added: any other order is split, and a one-row pass multiplies the weights one vector at a
 * time. node-llama-cpp adds sequences in the order they asked, which rotates, and starts the next
 * decode before the last sequence of a step has asked again, so a step of eight tokens took three
 * or four passes. Here the sequences are added in id order, and a step waits (a bounded number of
 * turns of the batching loop, never a timer) until every sequence that is generating has asked.
 */

/** Empty turns of the batching loop a step may wait for a late sequence before it goes without it. */
export const MAX_WAIT_TURNS = 64;

interface QueuedDecode {
  readonly tokens: unknown;
  readonly sequenceId: number;
}

/** node-llama-cpp's pending decodes, read to learn each batch item's sequence (no public accessor). */
function pendingDecodes(context: LlamaContext | undefined): readonly QueuedDecode[] | undefined {
  const queued = (context as unknown as { _queuedDecodes?: unknown } | undefined)?._queuedDecodes;
  return Array.isArray(queued) ? (queued as QueuedDecode[]) : undefined;
}

/** Tokens for each item as node-llama-cpp's "maximumParallelism" gives them: an even share, then the rest in turn. */
function share(items: readonly BatchItem[], size: number): number[] {
  const amounts = items.map(() => 0);
  let left = size;
  const even = Math.floor(size / Math.max(1, items.length));
  items.forEach((item, i) => {
    const n = Math.min(item.tokens.length, left, even);
    amounts[i] = n;
    left -= n;
  });
  for (let i = 0; i < items.length && left > 0; i++) {
    const more = Math.min((items[i] as BatchItem).tokens.length - (amounts[i] as number), left);
    amounts[i] = (amounts[i] as number) + more;
    left -= more;
  }
  return amounts;
}

export interface StepBatching {
  /** Passed as `createContext({ batching })`. */
  readonly options: NonNullable<LlamaContextOptions['batching']>;
  /** The context the options were given to (its pending decodes name each item's sequence). */
  attach(context: LlamaContext): void;
}

/**
 * @param generating how many sequences are leased to a request right now: a step waits for that many.
 */
export function stepBatching(generating: () => number): StepBatching {
  let context: LlamaContext | undefined;
  let waited = 0;
  const itemPrioritizationStrategy = ({
    items,
    size,
  }: {
    items: readonly BatchItem[];
    size: number;
  }): PrioritizedBatchItem[] => {
    const queued = pendingDecodes(context);
    const ids = new Map<unknown, number>();
    for (const q of queued ?? []) ids.set(q.tokens, q.sequenceId);
    // Returning nothing lets node-llama-cpp's loop turn once more (a microtask) before deciding again.
    if (queued !== undefined && new Set(ids.values()).size < generating() && waited < MAX_WAIT_TURNS) {
      waited++;
      return [];
    }
    waited = 0;
    const amounts = share(items, size);
    return items
      .map((item, i) => ({ item, processAmount: amounts[i] as number }))
      .filter((p) => p.processAmount > 0)
      .sort((a, b) => (ids.get(a.item.tokens) ?? 0) - (ids.get(b.item.tokens) ?? 0));
  };
  return {
    options: { itemPrioritizationStrategy },
    attach(c) {
      context = c;
    },
  };
}
