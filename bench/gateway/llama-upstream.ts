/**
 * A real local inference server for the gateway benchmark: our own server with the embedded
 * llama.cpp engine serving the random-weights test GGUF (2 layers, dim 64: the cheapest model
 * llama.cpp can run, so the harshest real upstream for a gateway) on `gen-4.6`, 64 sequences in one
 * context, one thread. It speaks the OpenAI-style chat API at `/paas/v4`. Reports its CPU time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeTestModels } from '../../src/test-models/write-test-models.js';
import { startBenchApp } from './app.js';
import { serveParent } from './ipc.js';

export const SEQUENCES = 64;

const modelsDir = mkdtempSync(path.join(tmpdir(), 'gen-platform-bench-models-'));
const { random } = await writeTestModels(modelsDir);
const bench = await startBenchApp({
  'gen-4.6': {
    deployments: [
      {
        engine: 'llama-cpp',
        model: random,
        threads: 1,
        parallel: SEQUENCES,
        context_size: 512,
        max_output: 256,
      },
    ],
  },
});

serveParent(
  {
    cpu: () => process.cpuUsage(),
    stop: async () => {
      await bench.close();
      rmSync(modelsDir, { recursive: true, force: true });
      return null;
    },
  },
  { origin: bench.origin, key: bench.key },
);
// Stops by itself after 20 minutes whatever happens.
setTimeout(() => process.exit(3), 20 * 60_000).unref();
