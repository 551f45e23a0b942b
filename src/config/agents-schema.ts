import { Type } from '@sinclair/typebox';

/** `agents:` the translation agent's limits and defaults. */
export const AgentsConfigSchema = Type.Object(
  {
    general_translation: Type.Object(
      {
        model: Type.String({
          minLength: 1,
          default: 'gen-4.7',
          description:
            'Chat model code the `general_translation` agent calls (any code served under `models` or by `embedded.default_model`).',
        }),
        max_input_chars: Type.Integer({
          minimum: 1,
          default: 200_000,
          description: 'Longest text (characters, all user messages together) the agent translates in one call.',
        }),
        glossary_repair: Type.Boolean({
          default: true,
          description:
            'When a glossary target term is missing from a piece’s translation, make one more call asking for it (counted in `usage.total_calls`).',
        }),
        max_glossary_entries: Type.Integer({
          minimum: 0,
          default: 2000,
          description: 'Entries one `custom_variables.glossary` may have; more: 1214 naming the line past it.',
        }),
        max_glossary_bytes: Type.Integer({
          minimum: 0,
          default: 128 * 1024,
          description: 'Bytes (UTF-8) one `custom_variables.glossary` may have; more: 1214.',
        }),
        artifact_max_pages: Type.Integer({
          minimum: 0,
          default: 50,
          description: 'Page images (`custom_variables.pages`) one conversation retrieval may ask for; more: 1214.',
        }),
        artifact_max_page_pixels: Type.Integer({
          minimum: 1,
          default: 25_000_000,
          description: 'Pixels (width × height) of one page image; more: 1214 naming the page.',
        }),
        artifact_max_pixels: Type.Integer({
          minimum: 1,
          default: 50_000_000,
          description: 'Pixels of all the page images one conversation retrieval asks for together; more: 1214.',
        }),
        piece_tokens: Type.Integer({
          minimum: 0,
          default: 0,
          description:
            "Largest piece of a long text sent in one model call, in the model's tokens; 0 = a quarter of the model's context window.",
        }),
        render_queue_size: Type.Integer({
          minimum: 0,
          default: 16,
          description:
            'Conversation-artifact renders (PDF, page images) that may wait for the renderer, served key by key; one more gets 1305.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    conversation_retention_days: Type.Number({
      minimum: 0,
      default: 30,
      description:
        'Days an agent conversation (its text and translation) is kept for retrieval; older ones are deleted by the store purger (`database.purge_interval_seconds`) and answer 1233. 0 = kept forever.',
    }),
  },
  { additionalProperties: false, default: {} },
);
