import { ConfigError } from '../config/load.js';
import { ApiError } from '../errors/api-error.js';
import { UsageError } from './args.js';
import type { CliEnv } from './cli-env.js';
import { ENGINES_HELP, INDEX_HELP, KEYS_HELP, MODELS_HELP, SERVE_HELP } from './command-help.js';
import { type CommandHelp, commandHelp, overviewHelp } from './help.js';
import { packageVersion } from './version.js';

type Command = (argv: string[], env: CliEnv) => Promise<number>;

// Each command's module is loaded when it runs: a key command does not load the server, and
// `--version` loads nothing (it took 2 s and 160 MB when every command was imported up front).
const COMMANDS: Record<string, { load: () => Promise<Command>; help: CommandHelp }> = {
  serve: { load: async () => (await import('./serve.js')).serveCommand, help: SERVE_HELP },
  keys: { load: async () => (await import('./keys.js')).keysCommand, help: KEYS_HELP },
  models: { load: async () => (await import('./models.js')).modelsCommand, help: MODELS_HELP },
  index: { load: async () => (await import('./index-command.js')).indexCommand, help: INDEX_HELP },
  engines: { load: async () => (await import('./engines.js')).enginesCommand, help: ENGINES_HELP },
};

const USAGE = overviewHelp(Object.values(COMMANDS).map((c) => c.help));

/** Exit codes (documented in the help and the README): 0 done, 1 failed, 2 usage or configuration error. */
export async function runCli(argv: string[], env: CliEnv): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v' || command === 'version') {
    env.out(`gen-platform ${packageVersion()}`);
    return 0;
  }
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    if (command === undefined) {
      env.err(USAGE);
      return 2;
    }
    env.out(USAGE);
    return 0;
  }
  const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!entry) {
    env.err(`gen-platform: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  try {
    return await (await entry.load())(rest, env);
  } catch (err) {
    if (err instanceof UsageError) {
      env.err(`gen-platform ${command}: ${err.message}\n\n${commandHelp(entry.help)}`);
      return 2;
    }
    if (err instanceof ConfigError) {
      env.err(`gen-platform: ${err.message}`);
      return 2;
    }
    if (err instanceof ApiError) {
      env.err(`gen-platform: ${err.message}`);
      return 1;
    }
    throw err;
  }
}
