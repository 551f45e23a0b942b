import { access, constants } from 'node:fs/promises';
import { type GgufFileInfo, readGgufFileInfo } from 'node-llama-cpp';

/** A GGUF that cannot be served: missing, unreadable, or lacking metadata llama.cpp needs. */
export class ModelFileError extends Error {
  readonly path: string;
  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super(`${path}: ${message}`, options);
    this.name = 'ModelFileError';
    this.path = path;
  }
}

/**
 * Architecture keys whose absence makes llama.cpp abort the whole process (an uncatchable
 * GGML_ASSERT) or fail obscurely, rather than return an error: checked before loading.
 */
const REQUIRED_ARCH_KEYS = [
  'context_length',
  'embedding_length',
  'block_count',
  'feed_forward_length',
  'attention.head_count',
] as const;

function lookup(obj: unknown, dotted: string): unknown {
  let cur: unknown = obj;
  for (const part of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

const positiveInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** Reads the GGUF header in pure JS and checks what the native loader would otherwise trip on. */
export async function checkGguf(path: string): Promise<GgufFileInfo> {
  try {
    await access(path, constants.R_OK);
  } catch (cause) {
    throw new ModelFileError(path, 'model file does not exist or is not readable', { cause });
  }
  let info: GgufFileInfo;
  try {
    info = await readGgufFileInfo(path, { readTensorInfo: true, logWarnings: false, sourceType: 'filesystem' });
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ModelFileError(path, `not a readable GGUF file (${why})`, { cause });
  }
  const arch = info.metadata.general?.architecture;
  if (typeof arch !== 'string' || String(arch) === '')
    throw new ModelFileError(path, 'general.architecture is missing');
  const archMeta: unknown = lookup(info.metadata, arch);
  for (const key of REQUIRED_ARCH_KEYS) {
    const value = lookup(archMeta, key);
    // head_count may be a per-layer array in some architectures.
    const ok = Array.isArray(value) ? value.length > 0 && value.every(positiveInt) : positiveInt(value);
    if (!ok) throw new ModelFileError(path, `${arch}.${key} is missing or not a positive integer`);
  }
  const embedding = lookup(archMeta, 'embedding_length') as number;
  const heads = lookup(archMeta, 'attention.head_count');
  if (typeof heads === 'number' && embedding % heads !== 0) {
    throw new ModelFileError(path, `${arch}.embedding_length is not a multiple of ${arch}.attention.head_count`);
  }
  const tokenizer = info.metadata.tokenizer?.ggml;
  if (typeof tokenizer?.model !== 'string') throw new ModelFileError(path, 'tokenizer.ggml.model is missing');
  if (!Array.isArray(tokenizer.tokens) || tokenizer.tokens.length === 0) {
    throw new ModelFileError(path, 'tokenizer.ggml.tokens is missing');
  }
  if (tokenizer.model === 'gpt2' && !Array.isArray(tokenizer.merges)) {
    throw new ModelFileError(path, 'tokenizer.ggml.merges is missing (required by the gpt2 tokenizer)');
  }
  if ((info.tensorInfo?.length ?? 0) === 0) throw new ModelFileError(path, 'the file holds no tensors');
  return info;
}
