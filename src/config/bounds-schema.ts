import { Type } from '@sinclair/typebox';

/**
 * Bounds on one request's work that belong to no other section: what the tokenizer may
 * fetch for media items, and how large a template the chat tools expand. Breaking one is a 1214
 * naming the field and the limit, or a 1261, before the work starts.
 */

const MB = 1024 * 1024;

/** `tokenizer:` the media items of one tokenizer request. */
export const TokenizerConfigSchema = Type.Object(
  {
    max_file_items: Type.Integer({
      minimum: 0,
      maximum: 50,
      default: 50,
      description:
        '`file_url` items per request (the spec allows 50); more is a 1214 naming the first item past it, before anything is fetched.',
    }),
    media_max_bytes: Type.Integer({
      minimum: MB,
      default: 256 * MB,
      description:
        'Bytes all media fetches of one request may read together (each item also keeps its own limit: images 5 MB, videos 200 MB); past it: 1214 naming the item.',
    }),
    media_deadline_seconds: Type.Integer({
      minimum: 1,
      maximum: 3600,
      default: 60,
      description:
        'Seconds all media fetches (and video probes) of one request may take together; past it: 1214 naming the item being fetched.',
    }),
    thread_queue_size: Type.Integer({
      minimum: 0,
      maximum: 4096,
      default: 16,
      description:
        'Long prompts and counts that may wait, per deployment, for its tokenizer thread (one runs at a time, off the event loop); past it: 503, code 1305.',
    }),
  },
  { additionalProperties: false, default: {} },
);

/** `chat:` the prompts the server builds from client templates (retrieval and web-search tools). */
export const ChatConfigSchema = Type.Object(
  {
    template_max_chars: Type.Integer({
      minimum: 64,
      default: 16_384,
      description:
        'Longest `prompt_template` (retrieval tool) or `search_prompt` (web-search tool), in characters; longer: 1214.',
    }),
    template_max_placeholders: Type.Integer({
      minimum: 1,
      maximum: 64,
      default: 4,
      description:
        'Placeholders (`{{question}}`, `{{knowledge}}`, `{search_result}`) one template may use, all together; more: 1214.',
    }),
    media_max_bytes: Type.Integer({
      minimum: MB,
      default: 32 * MB,
      description:
        'Bytes the media URLs of one request to a vision model may fetch together. The server fetches each (public addresses only, redirects re-checked; images 5 MB, videos 200 MB each) and hands it to the upstream inline as a `data:` URL; past it: 1214 naming the item.',
    }),
    media_deadline_seconds: Type.Integer({
      minimum: 1,
      maximum: 600,
      default: 30,
      description: 'Seconds the media fetches of one chat request may take together; past it: 1214 naming the item.',
    }),
    max_chars_per_token: Type.Integer({
      minimum: 1,
      default: 32,
      description:
        "A prompt longer than the model's context window times this many characters cannot fit: it is refused (1261) before it is built or tokenized. The tokenizer operation takes as much text at most (1214 past it).",
    }),
  },
  { additionalProperties: false, default: {} },
);
