import { ConfigError } from '../../../config/config-error.js';
import { buildLayout, bundleCommit, bundledSource, executable } from './llama-source.js';

export const BUILD_HINT =
  "run `npx gen-platform engines build` (builds it once from the llama.cpp source node-llama-cpp ships), or set `llama_server.binary` (or the deployment's `binary`) to a llama-server you have";

/** The llama-server that `engines build` made for the bundled llama.cpp, if it is there. */
export async function cachedBinary(cacheDir: string): Promise<string | undefined> {
  let commit: string;
  try {
    commit = await bundleCommit(bundledSource());
  } catch {
    // No bundled source (a trimmed install): nothing can have been built from it.
    return undefined;
  }
  const { binary } = buildLayout(cacheDir, commit);
  return executable(binary) ? binary : undefined;
}

/**
 * The binary a deployment runs: its own `binary`, else `llama_server.binary`, else the cached
 * build. A ConfigError, saying what to do, when there is none.
 */
export async function resolveBinary(
  own: string | undefined,
  configured: { binary?: string | undefined; cacheDir?: string | undefined } | undefined,
  where: string,
): Promise<string> {
  const named = own ?? configured?.binary;
  if (named !== undefined) {
    if (executable(named)) return named;
    throw new ConfigError(`${where}: the llama-server binary ${named} is not an executable file; ${BUILD_HINT}`);
  }
  const cached = configured?.cacheDir === undefined ? undefined : await cachedBinary(configured.cacheDir);
  if (cached !== undefined) return cached;
  throw new ConfigError(`${where}: no llama-server binary to run: ${BUILD_HINT}`);
}
