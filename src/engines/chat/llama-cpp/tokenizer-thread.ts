import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LlamaText } from 'node-llama-cpp';

/**
 * The thread's code: the model's vocabulary alone (no weights), and a count per message. CommonJS
 * text, so that it runs the same from the sources and from the build.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const ready = import(workerData.library).then(async ({ getLlama, LlamaLogLevel, LlamaText }) => {
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, progressLogs: false });
  const model = await llama.loadModel({ modelPath: workerData.modelPath, vocabOnly: true });
  return (json) => LlamaText.fromJSON(json).tokenize(model.tokenizer).length;
});
parentPort.on('message', ({ id, text }) => {
  ready
    .then((count) => parentPort.postMessage({ id, count: count(text) }))
    .catch((err) => parentPort.postMessage({ id, error: String((err && err.message) || err) }));
});
`;

interface Pending {
  resolve(count: number): void;
  reject(err: Error): void;
}

/**
 * Counts the tokens of a long prompt on a thread of its own: llama.cpp's tokenizer is a synchronous
 * native call, and a prompt of a large context held the event loop for seconds. The thread starts
 * on first use and loads the model's vocabulary only. Should it fail to start, `count` rejects and
 * the caller counts on its own thread.
 */
export class TokenizerThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(private readonly modelPath: string) {}

  count(text: LlamaText): Promise<number> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<number>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, text: text.toJSON() });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('the tokenizer thread was closed'));
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const library = pathToFileURL(createRequire(import.meta.url).resolve('node-llama-cpp')).href;
    const worker = new Worker(WORKER, { eval: true, workerData: { library, modelPath: this.modelPath } });
    worker.unref();
    worker.on('message', (reply: { id: number; count?: number; error?: string }) => {
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      if (reply.count === undefined) pending.reject(new Error(`tokenizer thread: ${reply.error}`));
      else pending.resolve(reply.count);
    });
    // A thread that fails or ends takes its counts with it; the next count starts another.
    worker.on('error', (err) => this.lost(worker, err));
    worker.on('exit', (code) => this.lost(worker, new Error(`tokenizer thread exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private lost(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.failAll(err);
  }

  private failAll(err: Error): void {
    for (const pending of this.pending.values()) pending.reject(err);
    this.pending.clear();
  }
}
