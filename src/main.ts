#!/usr/bin/env node
import { UsageError } from './cli/args.js';
import type { CliEnv } from './cli/cli-env.js';
import { INDEX_USAGE, indexCommand } from './cli/index-command.js';
import { KEYS_USAGE, keysCommand } from './cli/keys.js';
import { MODELS_USAGE, modelsCommand } from './cli/models.js';
import { SERVE_USAGE, serveCommand } from './cli/serve.js';
import { ConfigError } from './config/load.js';
import { ApiError } from './errors/api-error.js';

const USAGE = `gen-platform: a self-hostable Model Platform API server

${SERVE_USAGE}
${KEYS_USAGE}
${MODELS_USAGE}
${INDEX_USAGE}`;

async function main(argv: string[]): Promise<number> {
  // The one place that reads the process environment; everything else receives it.
  const env: CliEnv = {
    cwd: process.cwd(),
    vars: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  };
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serveCommand(rest, env);
      case 'keys':
        return await keysCommand(rest, env);
      case 'models':
        return await modelsCommand(rest, env);
      case 'index':
        return await indexCommand(rest, env);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        env.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        env.err(`unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof UsageError) {
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`gen-platform: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
