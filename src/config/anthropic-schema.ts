import { Type } from '@sinclair/typebox';
import { CHAT_MODEL_CODES } from '../models/catalogue.js';

const ModelCode = Type.Union(CHAT_MODEL_CODES.map((code) => Type.Literal(code)));

/**
 * `anthropic:` the Anthropic Messages API (`/anthropic/v1/messages`, also under `/api`): which key
 * endpoints may use it, and how the Claude model names that coding tools send resolve to model codes.
 */
export const AnthropicConfigSchema = Type.Object(
  {
    endpoints: Type.Array(Type.Union([Type.Literal('general'), Type.Literal('coding')]), {
      minItems: 1,
      default: ['coding'],
      description: 'Keys with any of these endpoints may call the Anthropic Messages API.',
    }),
    models: Type.Array(
      Type.Object(
        {
          match: Type.String({
            minLength: 1,
            description: 'A model name pattern: `*` stands for any characters, case is ignored.',
          }),
          model: ModelCode,
        },
        { additionalProperties: false },
      ),
      {
        default: [
          { match: 'claude-*haiku*', model: 'gen-4.5-air' },
          { match: 'claude-*sonnet*', model: 'gen-4.7' },
          { match: 'claude-*opus*', model: 'gen-4.7' },
        ],
        description:
          'Model names resolved to model codes, the first match winning (a model code is always served as itself).',
      },
    ),
    default_model: Type.Union([ModelCode, Type.Literal('')], {
      default: 'gen-4.7',
      description:
        'The model code for a name that no pattern matches (Claude Code also sends names of its own); empty: such a name is refused.',
    }),
    ping_interval_seconds: Type.Number({
      exclusiveMinimum: 0,
      default: 10,
      description:
        'A stream sends `ping` when the model has said nothing for this long (the stream starts once the model begins, or after this long).',
    }),
  },
  { additionalProperties: false, default: {} },
);
