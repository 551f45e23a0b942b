import { readFileSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * A directory to put first on llama-server's LD_LIBRARY_PATH so that it runs the very CPU kernels
 * the addon runs: the `libggml-cpu-*.so` node-llama-cpp loaded into this process (one of its
 * prebuilt variants, chosen for this CPU), under the name llama-server links, beside the ggml base
 * library of llama-server's own build of the same llama.cpp commit. The engines are then compared,
 * not two compilers: the same kernel compiled by -march=native here and by the prebuilt's
 * toolchain can differ by 2× in the prompt's matrix products (docs/benchmarks.md). Undefined when
 * no such library is loaded (the addon not loaded yet, or not a CPU build).
 */
export async function addonKernels(llamaServer: string, dir: string): Promise<string | undefined> {
  const loaded = readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .map((line) => line.split(/\s+/)[5] ?? '')
    .find((path) => /\/libggml-cpu[^/]*\.so$/.test(path));
  if (loaded === undefined) return undefined;
  await mkdir(dir, { recursive: true });
  await symlink(loaded, join(dir, 'libggml-cpu.so.0'));
  await symlink(join(dirname(llamaServer), 'libggml-base.so.0'), join(dir, 'libggml-base.so'));
  return dir;
}
