import { LlamaContextSequence } from 'node-llama-cpp';

/**
 * Calls `then` when the sequence next hands tokens to the context for decoding: the moment its
 * prompt is being evaluated. The hook is node-llama-cpp's internal `_decodeTokens`, which every
 * evaluation of a sequence goes through.
 */
export function onFirstDecode(then: () => void): () => void {
  const proto = LlamaContextSequence.prototype as unknown as {
    _decodeTokens: (...args: unknown[]) => Promise<unknown>;
  };
  const original = proto._decodeTokens;
  let fired = false;
  proto._decodeTokens = function (this: unknown, ...args: unknown[]) {
    const decoding = original.apply(this, args);
    if (!fired) {
      fired = true;
      then();
    }
    return decoding;
  };
  return () => {
    proto._decodeTokens = original;
  };
}
