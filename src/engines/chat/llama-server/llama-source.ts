import { accessSync, constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Where a llama-server built from the llama.cpp source that node-llama-cpp ships lives: one build per
 * llama.cpp commit under the cache folder, `<cache>/<commit12>/{src,build,build.log}`, the binary in
 * `build/bin/llama-server`. The repository's scripts/llama-server.sh uses the same layout, so the two
 * share one build.
 */
export interface LlamaBuildLayout {
  /** `<cache>/<commit12>` */
  dir: string;
  /** The clone of the bundled source. */
  src: string;
  /** CMake's build folder. */
  build: string;
  /** The built binary. */
  binary: string;
  /** What cmake and git printed. */
  log: string;
}

export function buildLayout(cacheDir: string, commit: string): LlamaBuildLayout {
  const dir = path.join(cacheDir, commit.slice(0, 12));
  const build = path.join(dir, 'build');
  return {
    dir,
    src: path.join(dir, 'src'),
    build,
    binary: path.join(build, 'bin', 'llama-server'),
    log: path.join(dir, 'build.log'),
  };
}

/** node-llama-cpp's copy of the llama.cpp source it builds against: a git bundle of one commit. */
export function bundledSource(): string {
  const entry = createRequire(import.meta.url).resolve('node-llama-cpp');
  // The package's entry point is dist/index.js; the bundle sits in llama/ beside dist/.
  return path.join(path.dirname(entry), '..', 'llama', 'gitRelease.bundle');
}

/**
 * The commit a git bundle holds: the first reference line of its header (`git bundle list-heads`
 * prints the same), read without git. Throws when the file is not a bundle.
 */
export async function bundleCommit(bundle: string): Promise<string> {
  const file = await open(bundle, 'r');
  let header: string;
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    header = buffer.subarray(0, bytesRead).toString('latin1');
  } finally {
    await file.close();
  }
  const lines = header.split('\n');
  if (!/^# v[23] git bundle$/.test(lines[0] ?? '')) throw new Error(`${bundle} is not a git bundle`);
  // v3 capability lines start with '@', prerequisites with '-'; the first reference follows them.
  for (const line of lines.slice(1)) {
    if (line === '') break;
    const ref = /^([0-9a-f]{40}) /.exec(line);
    if (ref) return ref[1]!;
  }
  throw new Error(`${bundle} names no commit`);
}

/** Whether `file` exists and this process may run it. */
export function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    // Missing or not executable: the caller says what it looked for.
    return false;
  }
}
