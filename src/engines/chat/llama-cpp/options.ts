/** One deployment of the embedded engine: a local GGUF and how to run it. */
export interface LlamaCppEngineOptions {
  /** Path of a local GGUF file. */
  modelPath: string;
  /** CPU threads for evaluation. Set it explicitly: llama.cpp's default oversubscribes small machines. */
  threads: number;
  /** Context window shared by the parallel sequences, in tokens (each sequence gets all of it). */
  contextSize?: number;
  /** Generations that run at once (sequences of one context). */
  parallel?: number;
  /** Requests that may wait for a free sequence; one more is refused with 1305. */
  queueLimit?: number;
  /** GPU offloading; off unless asked for. */
  gpu?: false | 'auto';
  /** Largest completion this deployment produces; defaults to the context size. */
  maxOutput?: number;
  /** Long prompts that may wait for the tokenizer thread; one more is refused with 1305. */
  tokenizerQueueSize?: number;
  /** Bytes of prompt states kept to share between sequences (prompt-cache.ts); 0 or unset: none. */
  promptCacheBytes?: number;
  /** Where a prompt state that could not be saved or restored is reported; default: a process warning. */
  warn?: (details: Record<string, unknown>, message: string) => void;
}

export interface ResolvedLlamaCppOptions {
  modelPath: string;
  threads: number;
  contextSize: number;
  parallel: number;
  queueLimit: number;
  gpu: false | 'auto';
  maxOutput: number;
  tokenizerQueueSize: number;
  promptCacheBytes: number;
  warn: (details: Record<string, unknown>, message: string) => void;
}

export function resolveOptions(o: LlamaCppEngineOptions): ResolvedLlamaCppOptions {
  const contextSize = o.contextSize ?? 4096;
  const parallel = o.parallel ?? 1;
  const checks: [string, number, number][] = [
    ['threads', o.threads, 1],
    ['contextSize', contextSize, 16],
    ['parallel', parallel, 1],
    ['queueLimit', o.queueLimit ?? 0, 0],
    ['tokenizerQueueSize', o.tokenizerQueueSize ?? 0, 0],
    ['promptCacheBytes', o.promptCacheBytes ?? 0, 0],
  ];
  for (const [name, value, min] of checks) {
    if (!Number.isInteger(value) || value < min) throw new Error(`llama-cpp: ${name} must be an integer >= ${min}`);
  }
  return {
    modelPath: o.modelPath,
    threads: o.threads,
    contextSize,
    parallel,
    queueLimit: o.queueLimit ?? 16 * parallel,
    gpu: o.gpu ?? false,
    maxOutput: Math.min(o.maxOutput ?? contextSize, contextSize),
    tokenizerQueueSize: o.tokenizerQueueSize ?? 16,
    promptCacheBytes: o.promptCacheBytes ?? 0,
    warn: o.warn ?? ((_details, message) => process.emitWarning(message)),
  };
}
