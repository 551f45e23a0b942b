import { loadConfig } from '../config/load.js';
import { BuildError, type BuildProgress, buildLlamaServer } from '../engines/chat/llama-server/build.js';
import { parse, UsageError } from './args.js';
import type { CliEnv } from './cli-env.js';
import { ENGINES_HELP } from './command-help.js';
import { commandHelp } from './help.js';
import { progressBar } from './progress-bar.js';

/** `engines build`: llama-server for `engine: llama-server` deployments, built once into the cache. */
export async function enginesCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values, positionals } = parse(argv, {});
  if (values['help']) {
    env.out(commandHelp(ENGINES_HELP));
    return 0;
  }
  const [action, ...rest] = positionals;
  if (action !== 'build')
    throw new UsageError(action ? `unknown engines action "${action}"` : 'engines needs an action: build');
  if (rest.length > 0) throw new UsageError(`engines build takes no arguments, got ${rest.join(' ')}`);
  const { config } = loadConfig({
    file: values['config'] as string | undefined,
    cwd: env.cwd,
    env: env.vars,
    flags: { data: values['data'] as string | undefined },
  });
  const cacheDir = config.llama_server.cache_dir;
  if (cacheDir === undefined) throw new UsageError('llama_server.cache_dir is not set');
  const bar = progressBar('llama-server', env.status, env.err);
  const onProgress = (p: BuildProgress) => {
    if (p.step === 'clone') env.err('Unpacking the llama.cpp source the embedded engine ships with...');
    else if (p.step === 'configure') env.err('Configuring the build (cmake)...');
    else if (p.step === 'compile') bar.update(p.percent, 100, p.detail.slice(0, 60));
    else bar.end();
  };
  try {
    const result = await buildLlamaServer({ cacheDir, env: env.vars, onProgress });
    if (result.cached) env.err('llama-server is already built for this llama.cpp:');
    else env.err('Built llama-server:');
    // The path is the last line of stdout, for scripts and for `llama_server.binary`.
    env.out(result.binary);
    return 0;
  } catch (err) {
    bar.end();
    if (!(err instanceof BuildError)) throw err;
    env.err(`gen-platform engines build: ${err.message}`);
    return 1;
  }
}
