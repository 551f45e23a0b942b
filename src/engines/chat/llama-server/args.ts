/** What a managed llama-server is started with: the deployment's settings, resolved. */
export interface LlamaServerSettings {
  /** The GGUF file. */
  modelPath: string;
  /** CPU threads, for generation and for prompt batches alike. */
  threads: number;
  /** Context window of each sequence, in tokens (as the embedded engine's `context_size`). */
  contextSize: number;
  /** Sequences generating at once (llama-server's slots). */
  parallel: number;
  /** Logical batch (`-b`); unset: llama-server's default. */
  batchSize?: number | undefined;
  /** Physical batch (`-ub`); unset: llama-server's default. */
  ubatchSize?: number | undefined;
  /** Offload layers to a GPU when the build has one; off: every layer on the CPU. */
  gpu: boolean;
  /** A Jinja chat template file used instead of the GGUF's own. */
  chatTemplateFile?: string | undefined;
  /** The model name llama-server reports. */
  alias: string;
  /** Flags passed as they are, after ours (a later flag wins in llama-server's parser). */
  extraArgs: readonly string[];
}

/**
 * llama-server's command line for these settings, listening on loopback at `port`. Each sequence
 * gets its own `contextSize` cells, as in the embedded engine: llama-server splits `-c` between its
 * slots, so it is asked for `contextSize × parallel`. The chat template runs through llama.cpp's
 * Jinja engine (the GGUF's own template, or the deployment's file), which is what reads tool calls
 * and reasoning out of the reply. With `apiKeyFile`, it answers only requests that carry the key it
 * holds (`/health` excepted): the port is open to every local process and, through CORS, to pages
 * a local browser opens.
 */
export function llamaServerArgs(s: LlamaServerSettings, port: number, apiKeyFile?: string): string[] {
  const args = [
    '--model',
    s.modelPath,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--ctx-size',
    String(s.contextSize * s.parallel),
    '--parallel',
    String(s.parallel),
    '--threads',
    String(s.threads),
    '--threads-batch',
    String(s.threads),
    '--n-gpu-layers',
    s.gpu ? 'auto' : '0',
    '--jinja',
    '--alias',
    s.alias,
    '--no-webui',
  ];
  if (s.batchSize !== undefined) args.push('--batch-size', String(s.batchSize));
  if (s.ubatchSize !== undefined) args.push('--ubatch-size', String(s.ubatchSize));
  if (s.chatTemplateFile !== undefined) args.push('--chat-template-file', s.chatTemplateFile);
  if (apiKeyFile !== undefined) args.push('--api-key-file', apiKeyFile);
  args.push(...s.extraArgs);
  return args;
}
