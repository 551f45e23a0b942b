import { Type } from '@sinclair/typebox';

/** Where deployments with `engine: llama-server` find their binary. */
export const LlamaServerConfigSchema = Type.Object(
  {
    binary: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'The llama-server binary of `engine: llama-server` deployments (a deployment may name its own); default: the one `gen-platform engines build` made.',
      }),
    ),
    cache_dir: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'Where `gen-platform engines build` builds llama-server, one folder per llama.cpp commit; default `$XDG_CACHE_HOME/gen-platform-llama` (else `~/.cache/gen-platform-llama`).',
      }),
    ),
  },
  { additionalProperties: false, default: {} },
);
