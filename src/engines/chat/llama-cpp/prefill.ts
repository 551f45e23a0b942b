import type { LlamaContextSequence, Token } from 'node-llama-cpp';
import { upstreamFailure } from '../../../errors/errors.js';
import type { CancelSignal } from '../../../util/cancel-signal.js';

/**
 * Evaluates all but the last prompt token into the sequence one batch at a time, stopping between
 * batches when `signal` aborts; returns whether it got through. node-llama-cpp evaluates a prompt
 * in one call that no signal interrupts (LlamaChat looks at its signal only once tokens are being
 * generated), so without this a client that leaves during a long prompt holds the sequence until
 * the whole prompt is evaluated. LlamaChat then finds these tokens in the sequence and evaluates
 * only what differs, at least the last token, whose logits give the first generated one.
 * `onEvaluated` hears how many prompt tokens the sequence holds, before the first batch and after each.
 */
export async function prefillPrompt(
  sequence: LlamaContextSequence,
  prompt: readonly Token[],
  signal: CancelSignal,
  onEvaluated: (tokens: number) => void = () => {},
): Promise<boolean> {
  const end = prompt.length - 1;
  const batch = Math.max(1, sequence.context.batchSize);
  try {
    // Drops what the sequence holds past the prompt's common prefix (no shifting: a shift evaluates).
    await sequence.adaptStateToTokens(prompt as Token[], false);
    for (let at = sequence.nextTokenIndex; at < end; at = sequence.nextTokenIndex) {
      onEvaluated(at);
      if (signal.aborted) return false;
      await sequence.evaluateWithoutGeneratingNewTokens(prompt.slice(at, Math.min(end, at + batch)));
    }
    onEvaluated(sequence.nextTokenIndex);
  } catch (err) {
    if (signal.aborted) return false;
    throw upstreamFailure('The embedded model failed while reading the prompt', { cause: err });
  }
  return !signal.aborted;
}
