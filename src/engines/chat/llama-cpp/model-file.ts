import { existsSync } from 'node:fs';
import path from 'node:path';
import { resolveModelFile } from 'node-llama-cpp';
import { upstreamFailure } from '../../../errors/errors.js';
import { abortSignalOf, type CancelSignal } from '../../../util/cancel-signal.js';
import type { EngineContext, ModelFileStatus, ModelSource } from '../factory.js';
import { checkGguf } from './gguf-check.js';

export const isRemote = (model: string): boolean => /^(hf:|huggingface:|https?:\/\/)/.test(model);

/**
 * The file name a plain URL is stored under. node-llama-cpp derives names for `hf:` references
 * itself, but finds an already downloaded URL again only when told the name.
 */
export function urlFileName(model: string): string | undefined {
  if (!/^https?:\/\//.test(model)) return undefined;
  const name = decodeURIComponent(new URL(model).pathname.split('/').pop() ?? '');
  return name === '' ? undefined : name;
}

/** Where a reference lives on disk, downloading it first when `download` says so. */
export function resolveRemote(
  model: string,
  context: EngineContext,
  download:
    | { cli: boolean; onProgress?: (s: { downloadedSize: number; totalSize: number }) => void; signal?: CancelSignal }
    | false,
): Promise<string> {
  const fileName = urlFileName(model);
  return resolveModelFile(model, {
    directory: context.modelsDir,
    ...(fileName === undefined ? {} : { fileName }),
    ...(download === false
      ? { download: false, cli: false }
      : {
          download: 'auto',
          cli: download.cli,
          ...(download.onProgress ? { onProgress: download.onProgress } : {}),
          ...(download.signal ? { signal: abortSignalOf(download.signal) } : {}),
        }),
  });
}

async function checkFile(file: string): Promise<ModelFileStatus> {
  try {
    await checkGguf(file);
    return { status: 'usable' };
  } catch (err) {
    const reason = (err as Error).message;
    return { status: existsSync(file) ? 'invalid' : 'missing', reason };
  }
}

/** The GGUF a llama-cpp deployment opens: a local path checked at start-up, or a reference to download. */
export function llamaCppSource(model: string, context: EngineContext): ModelSource {
  if (!isRemote(model)) {
    const file = path.resolve(context.configDir, model);
    return {
      id: file,
      reference: file,
      remote: false,
      check: () => checkFile(file),
      fetch: () => Promise.reject(new Error(`${file} is a local file: there is nothing to download`)),
    };
  }
  return {
    id: `${context.modelsDir}\n${model}`,
    reference: model,
    remote: true,
    async check() {
      let file: string;
      try {
        file = await resolveRemote(model, context, false);
      } catch (err) {
        return { status: 'missing', reason: `not downloaded yet (${(err as Error).message})` };
      }
      return checkFile(file);
    },
    async fetch(onProgress, signal) {
      await resolveRemote(model, context, {
        cli: false,
        onProgress: (s) => onProgress(s.downloadedSize, s.totalSize),
        signal,
      });
    },
  };
}

/**
 * A deployment's GGUF on disk (the embedded and the managed llama-server engine): a path against the
 * config's folder, or a remote reference resolved, downloaded first when `download` says so.
 */
export async function localModelFile(model: string, context: EngineContext, download: boolean): Promise<string> {
  if (!isRemote(model)) return path.resolve(context.configDir, model);
  try {
    return await resolveRemote(model, context, download ? { cli: true } : false);
  } catch (err) {
    throw upstreamFailure(
      `The model ${model} is not available: ${(err as Error).message}. Run \`gen-platform models pull\` on a machine with network access, or point the deployment at a local GGUF file`,
      { cause: err },
    );
  }
}
