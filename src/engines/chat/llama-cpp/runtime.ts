import { getLlama, type Llama, LlamaLogLevel } from 'node-llama-cpp';

const runtimes = new Map<string, Promise<Llama>>();

/**
 * One native runtime per GPU setting for the whole process: every deployment shares it. Only the
 * prebuilt binaries are used; building from source would need a network and a compiler.
 */
export function sharedLlama(gpu: false | 'auto'): Promise<Llama> {
  const key = String(gpu);
  let runtime = runtimes.get(key);
  if (runtime === undefined) {
    runtime = getLlama({ gpu, build: 'never', logLevel: LlamaLogLevel.error, progressLogs: false });
    runtime.catch(() => runtimes.delete(key));
    runtimes.set(key, runtime);
  }
  return runtime;
}
