import { createLlamaServerEngine } from '../../../src/engines/chat/llama-server/engine.js';

// Run by the orphan test: a managed llama-server in a process of its own, whose pid goes to stdout.
const [binary, modelPath] = process.argv.slice(2) as [string, string];
const log = { info() {}, warn() {}, error() {} };
const engine = await createLlamaServerEngine({
  binary,
  settings: { modelPath, threads: 1, contextSize: 512, parallel: 1, gpu: false, alias: 'test', extraArgs: [] },
  overrides: {},
  upstream: {},
  log,
  label: 'orphan test',
});
process.stdout.write(`${engine.pid}\n`);
setInterval(() => {}, 60_000);
