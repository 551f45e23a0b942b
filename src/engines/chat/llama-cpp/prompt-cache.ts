import { chmod, realpath, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { LlamaContextSequence, Token } from 'node-llama-cpp';
import { ownedTempDir } from '../../../util/owned-temp-dir.js';
import { commonPrefix, PromptCacheIndex, type PromptCacheLimits } from './prompt-cache-index.js';

/** States kept at most per deployment: a lookup compares the prompt with each. */
const MAX_ENTRIES = 256;
/** Prompts shorter than this are not saved. */
const MIN_TOKENS = 32;
/** A restore must bring this many tokens more than the lent sequence already holds. */
const MIN_GAIN = 16;
/** A state is restored only if the prompt uses at least this share of it: a restore reads the whole file. */
const MIN_USED_SHARE = 0.25;

export type PromptCacheWarn = (details: Record<string, unknown>, message: string) => void;

/** What a state depends on besides its tokens: the model file and the context's shape. */
export interface PromptCacheSource {
  modelPath: string;
  /** Each sequence's context, in tokens. */
  contextSize: number;
  /** Sequences of the context (llama.cpp's streams: a state holds one per sequence). */
  sequences: number;
  /**
   * The model's memory cannot be cut back to a shorter prefix (sliding-window attention or a
   * recurrent state, node-llama-cpp's `needsCheckpoints`): only states wholly a prefix of a prompt
   * are restored.
   */
  wholeOnly: boolean;
}

/**
 * Prompt states shared between the sequences of one context (llama-server's `--cache-ram`): after
 * a prompt is evaluated its sequence's state is saved, and a request lent another sequence that
 * holds less of its prompt restores that state, then evaluates only the rest. node-llama-cpp
 * copies no memory from one sequence to another; its in-memory checkpoints are restored only into
 * the sequence they were taken from, so states go through llama.cpp's sequence state files
 * (`llama_state_seq_save_file` / `load_file`, run off the event loop, each holding the context
 * between two decodes for as long as one file takes). The files live in a private folder (0700,
 * files 0600) of the system's temporary directory, removed at close (or, if the process was killed,
 * when the next one opens a cache: util/owned-temp-dir.ts); what they hold is bounded by
 * `budgetBytes` (PromptCacheIndex).
 */
export class PromptCache {
  private constructor(
    /** The private folder of the state files. */
    readonly dir: string,
    private readonly index: PromptCacheIndex,
    private readonly warn: PromptCacheWarn,
    private readonly wholeOnly: boolean,
  ) {}

  /**
   * The cache of one context, or undefined when `budgetBytes` is 0 or its folder cannot be made
   * (then the engine runs without one, and says so through `warn`).
   */
  static async open(
    source: PromptCacheSource,
    budgetBytes: number,
    warn: PromptCacheWarn,
  ): Promise<PromptCache | undefined> {
    const limits: PromptCacheLimits = { budgetBytes, maxEntries: MAX_ENTRIES, minTokens: MIN_TOKENS };
    if (budgetBytes === 0) return undefined;
    const file = await realpath(source.modelPath);
    const { size, mtimeMs } = await stat(file);
    const index = new PromptCacheIndex(
      JSON.stringify([file, size, mtimeMs, source.contextSize, source.sequences]),
      limits,
    );
    let dir: string;
    try {
      dir = await ownedTempDir('gen-platform-prompts-');
    } catch (err) {
      warn({ err }, 'The prompt cache has no folder to keep its files in; prompts are not shared between sequences');
      return undefined;
    }
    return new PromptCache(dir, index, warn, source.wholeOnly);
  }

  /** The longest prefix of `prompt` a kept state holds (for choosing a sequence). */
  match(prompt: readonly Token[]): number {
    return this.index.best(prompt, this.wholeOnly)?.length ?? 0;
  }

  /**
   * Loads into `sequence` the kept state that shares the longest prefix with `prompt`, when it holds
   * enough more than the sequence does. The sequence is emptied first: a file that cannot be read
   * then leaves it empty (evaluated from the start) rather than holding what it held under no tokens.
   */
  async restore(sequence: LlamaContextSequence, prompt: readonly Token[]): Promise<void> {
    const own = commonPrefix(sequence.contextTokens, prompt);
    const match = this.index.best(prompt, this.wholeOnly);
    if (match === undefined || match.length < own + MIN_GAIN) return;
    if (match.length < match.entry.tokens.length * MIN_USED_SHARE) return;
    this.index.pin(match.entry);
    try {
      await sequence.clearHistory();
      await sequence.loadStateFromFile(this.path(match.entry.key), { acceptRisk: true });
    } catch (err) {
      this.warn({ err }, 'A saved prompt state could not be restored; the prompt is evaluated instead');
      this.index.unpin(match.entry);
      await this.delete([this.index.drop(match.entry)]);
      await sequence.clearHistory();
      return;
    }
    this.index.unpin(match.entry);
  }

  /** Saves the state of the prompt `sequence` holds, unless it is too short or kept already. */
  async save(sequence: LlamaContextSequence): Promise<void> {
    const tokens = sequence.contextTokens;
    const key = this.index.reserve(tokens);
    if (key === undefined) return;
    const file = this.path(key);
    try {
      const { fileSize } = await sequence.saveStateToFile(file);
      await chmod(file, 0o600);
      await this.delete(this.index.admit(key, tokens, fileSize));
    } catch (err) {
      this.index.cancel(key);
      this.warn({ err }, 'A prompt state could not be saved; the prompt stays uncached');
      await this.delete([key]);
    }
  }

  /** Bytes of the states kept. */
  get bytes(): number {
    return this.index.bytes;
  }

  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  private path(key: string): string {
    return join(this.dir, `${key}.state`);
  }

  private async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.path(key), { force: true })));
  }
}
