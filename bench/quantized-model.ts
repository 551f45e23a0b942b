import { spawn, spawnSync } from 'node:child_process';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeGguf } from '../src/test-models/gguf-writer.js';
import { type Qwen3Shape, randomQwen3 } from '../src/test-models/qwen3-model.js';

/**
 * A random-weight qwen3 GGUF quantized by llama.cpp's own `llama-quantize` (the one built beside
 * llama-server by scripts/llama-server.sh), made once and cached outside the checkout beside that
 * build: `<cache>/gen-platform-llama/<llama.cpp commit>/models/`, named by shape, seed, the
 * generator's version and the quantization. Nothing is downloaded: the F16 file is written by the
 * test models' writer, quantized, then deleted.
 */

/** Bumped when randomQwen3 writes different bytes for the same arguments. */
const GENERATOR_VERSION = 1;

function llamaCommit(): string {
  const heads = spawnSync('git', ['bundle', 'list-heads', 'node_modules/node-llama-cpp/llama/gitRelease.bundle'], {
    encoding: 'utf8',
  });
  const commit = heads.status === 0 ? heads.stdout.slice(0, 12) : '';
  if (!/^[0-9a-f]{12}$/.test(commit)) throw new Error('cannot read the llama.cpp commit of node-llama-cpp');
  return commit;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

function run(binary: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let tail = '';
    child.stderr.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-4_000);
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${binary} exited with ${code}: ${tail.slice(-1_500)}`)),
    );
  });
}

/**
 * The path of the quantized model, making it first if the cache lacks it (a minute or two: the
 * F16 file of Qwen3-0.6B's shape is 1.2 GB).
 * @param llamaServer the llama-server binary; llama-quantize is looked for beside it.
 */
export async function quantizedQwen3(
  llamaServer: string,
  shape: Qwen3Shape,
  quantization: 'Q4_K_M' | 'Q8_0',
  seed = 1,
): Promise<string> {
  const cache = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  const dir = join(cache, 'gen-platform-llama', llamaCommit(), 'models');
  const s = shape;
  const name = `qwen3-l${s.layers}-e${s.embedding}-h${s.heads}-kv${s.kvHeads}-d${s.headDim}-ff${s.feedForward}-v${s.vocab}-s${seed}-g${GENERATOR_VERSION}`;
  const path = join(dir, `${name}.${quantization}.gguf`);
  if (await exists(path)) return path;
  const quantize = join(dirname(llamaServer), 'llama-quantize');
  if (!(await exists(quantize)))
    throw new Error(`no ${quantize}: run scripts/llama-server.sh, which builds it beside llama-server`);
  await mkdir(dir, { recursive: true });
  const f16 = join(dir, `${name}.F16.gguf.${process.pid}`);
  const partial = `${path}.${process.pid}`;
  try {
    process.stderr.write(`engines bench: writing ${name} (F16) and quantizing it to ${quantization}, once\n`);
    await writeGguf(f16, randomQwen3(shape, seed, 'f16'));
    await run(quantize, [f16, partial, quantization, '2']);
    // Whole or absent: a bench killed halfway leaves no file that looks finished.
    await rename(partial, path);
  } finally {
    await rm(f16, { force: true });
    await rm(partial, { force: true });
  }
  return path;
}
