import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { LlamaModel, LlamaText, LlamaTextJSON, Token, Tokenizer } from 'node-llama-cpp';
import type { CancelSignal } from '../../../util/cancel-signal.js';
import { CountThread } from '../count-thread.js';

/** One call LlamaText made to the tokenizer, with its answer. */
export interface TokenizedPiece {
  text: string;
  special: boolean | 'builtin' | undefined;
  options: 'trimLeadingSpace' | undefined;
  tokens: Token[];
}

/** A prompt tokenized on the thread, and the pieces it was tokenized in. */
export interface TokenizedPrompt {
  tokens: Token[];
  pieces: TokenizedPiece[];
}

type Job = { text: LlamaTextJSON; pieces: boolean };

/**
 * The thread's code: the model's vocabulary alone (no weights). It answers a prompt's tokens, and
 * with `pieces`, every call LlamaText made to the tokenizer on the way (see TokenMemo). CommonJS
 * text, so that it runs the same from the sources and from the build.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const ready = import(workerData.library).then(async ({ getLlama, LlamaLogLevel, LlamaText }) => {
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, progressLogs: false });
  const model = await llama.loadModel({ modelPath: workerData.modelPath, vocabOnly: true });
  return ({ text, pieces }) => {
    const tokenizer = model.tokenizer;
    if (!pieces) return LlamaText.fromJSON(text).tokenize(tokenizer).length;
    const calls = [];
    const recording = Object.assign(
      (text, special, options) => {
        const tokens = tokenizer(text, special, options);
        if (text !== '') calls.push({ text, special, options, tokens });
        return tokens;
      },
      { detokenize: tokenizer.detokenize, isSpecialToken: tokenizer.isSpecialToken, isEogToken: tokenizer.isEogToken },
    );
    return { tokens: LlamaText.fromJSON(text).tokenize(recording), pieces: calls };
  };
});
parentPort.on('message', ({ id, job }) => {
  ready
    .then((run) => parentPort.postMessage({ id, result: run(job) }))
    .catch((err) => parentPort.postMessage({ id, error: String((err && err.message) || err) }));
});
`;

/** Long prompts that may wait for the thread while one is tokenized (past them, 1305); `tokenizer.thread_queue_size` sets it. */
const MAX_WAITING = 16;

/**
 * Tokenizes long prompts on a thread of its own: llama.cpp's tokenizer is a synchronous native
 * call, and a prompt of a large context held the event loop for seconds. One prompt at a time, a
 * bounded line, and a prompt whose client leaves is dropped (count-thread.ts). The thread starts on
 * first use and loads the model's vocabulary only.
 */
export class TokenizerThread {
  private readonly thread: CountThread<Job, number | TokenizedPrompt>;

  constructor(modelPath: string, maxWaiting = MAX_WAITING) {
    const library = pathToFileURL(createRequire(import.meta.url).resolve('node-llama-cpp')).href;
    this.thread = new CountThread({
      code: WORKER,
      workerData: { library, modelPath },
      maxWaiting,
      name: `the tokenizer of ${modelPath.split(/[\\/]/).at(-1)}`,
    });
  }

  get load() {
    return this.thread.load;
  }

  async count(text: LlamaText, signal?: CancelSignal): Promise<number> {
    return (await this.thread.run({ text: text.toJSON(), pieces: false }, signal)) as number;
  }

  async tokenize(text: LlamaText, signal?: CancelSignal): Promise<TokenizedPrompt> {
    return (await this.thread.run({ text: text.toJSON(), pieces: true }, signal)) as TokenizedPrompt;
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}

/**
 * The tokens of pieces tokenized on the thread, given back when the model's tokenizer is asked for
 * them again. LlamaChat tokenizes the whole prompt on the event loop when it generates (its
 * `model.tokenizer`, a synchronous native call); with the memo in place, a prompt tokenized on the
 * thread beforehand is found here, piece by piece, and the loop only looks it up. A tokenizer is a
 * function of its input, so a piece found is right whoever held it; pieces are kept while a
 * generation holds them.
 */
export class TokenMemo {
  private readonly held = new Map<string, { piece: TokenizedPiece; holders: number }[]>();

  constructor(model: LlamaModel) {
    const own = model.tokenizer;
    const find = (text: string, special: unknown, options: unknown) =>
      this.held.get(text)?.find((h) => h.piece.special === special && h.piece.options === options)?.piece.tokens;
    const memo = Object.assign(
      (text: string, special?: boolean | 'builtin', options?: 'trimLeadingSpace') =>
        find(text, special, options)?.slice() ?? (own as (...args: unknown[]) => Token[])(text, special, options),
      { detokenize: own.detokenize, isSpecialToken: own.isSpecialToken, isEogToken: own.isEogToken },
    ) as Tokenizer;
    (model as { tokenizer: Tokenizer }).tokenizer = memo;
  }

  /** Keeps `pieces` until the returned function is called. */
  hold(pieces: TokenizedPiece[]): () => void {
    const entries = pieces.map((piece) => {
      const list = this.held.get(piece.text) ?? [];
      const found = list.find((h) => h.piece.special === piece.special && h.piece.options === piece.options);
      if (found) {
        found.holders++;
        return found;
      }
      const entry = { piece, holders: 1 };
      list.push(entry);
      this.held.set(piece.text, list);
      return entry;
    });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const entry of entries) {
        if (--entry.holders > 0) continue;
        const list = this.held.get(entry.piece.text);
        const rest = list?.filter((h) => h !== entry) ?? [];
        if (rest.length > 0) this.held.set(entry.piece.text, rest);
        else this.held.delete(entry.piece.text);
      }
    };
  }
}
