#!/usr/bin/env node
import type { CliEnv } from './cli/cli-env.js';
import { runCli } from './cli/run.js';

// The one place that reads the process environment; everything else receives it.
const env: CliEnv = {
  cwd: process.cwd(),
  vars: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  status: process.stderr.isTTY ? (text) => process.stderr.write(text) : undefined,
};

runCli(process.argv.slice(2), env).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`gen-platform: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
