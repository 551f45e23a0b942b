import { Type } from '@sinclair/typebox';

/** The `reader` section: what the web reader may fetch, how it extracts, and the bounds of one read. */
export const ReaderConfigSchema = Type.Object(
  {
    allow_hosts: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description:
        'What every guarded fetch (the reader, chat and tokenizer media, image URLs elsewhere) may reach beyond public addresses. A hostname (`intranet.example`) or suffix (`*.example`) opens private, loopback, carrier-grade NAT and unique-local addresses for that name only; an IP or CIDR (`10.1.0.0/16`) opens the addresses it covers, link-local and reserved ones included. Cloud metadata endpoints, 0.0.0.0, multicast and broadcast stay refused whatever the list says.',
    }),
    max_bytes: Type.Integer({
      minimum: 1024,
      default: 10 * 1024 * 1024,
      description: 'Largest page read, after decompression.',
    }),
    max_redirects: Type.Integer({ minimum: 0, maximum: 20, default: 5 }),
    idle_timeout_ms: Type.Integer({
      minimum: 100,
      default: 10_000,
      description: 'Longest silence while reading a page.',
    }),
    browser: Type.Union([Type.Literal('never'), Type.Literal('auto'), Type.Literal('always')], {
      default: 'never',
      description: '`auto` renders pages whose HTML has scripts but almost no text in headless Chromium.',
    }),
    chromium_path: Type.String({ default: '/usr/bin/chromium', description: "Debian's `chromium` package." }),
    cache_ttl_seconds: Type.Integer({
      minimum: 0,
      default: 3600,
      description: 'Lifetime of cached pages; 0 disables the cache.',
    }),
    cache_max_bytes: Type.Integer({
      minimum: 0,
      default: 256 * 1024 * 1024,
      description: 'Largest total size of cached pages; past it, the pages that expire soonest are deleted.',
    }),
    user_agent: Type.String({
      minLength: 1,
      default: 'Mozilla/5.0 (compatible; gen-platform-reader/0.1)',
      description: "The reader's `User-Agent` header.",
    }),
    workers: Type.Integer({
      minimum: 0,
      maximum: 64,
      default: 0,
      description:
        'Threads that parse and extract pages (HTML, Markdown, PDF text) off the request loop; 0: one per CPU core.',
    }),
    worker_memory_mb: Type.Integer({
      minimum: 32,
      default: 512,
      description:
        'Heap cap of each extraction thread; a page that needs more fails with 1234 and the thread is replaced (a 10 MB article needs about 350).',
    }),
    extract_timeout_seconds: Type.Integer({
      minimum: 1,
      maximum: 600,
      default: 30,
      description:
        "Longest a page may hold an extraction thread, whatever the read's `timeout`; a page past it fails with 1234 and the thread is replaced.",
    }),
    extract_queue_size: Type.Integer({
      minimum: 1,
      default: 256,
      description:
        'Pages waiting for an extraction thread, all keys together (served account by account, then key by key; one account, or a key without one, holds at most all threads but one); past it a read is refused with 1305.',
    }),
    pdf_max_decoded_mb: Type.Integer({
      minimum: 1,
      default: 64,
      description:
        "What a PDF's compressed streams may decode to in total, counted before the PDF is parsed, each stream read as pdf.js reads it (inflated streams are memory outside the heap cap); while it is read, pdf.js's buffers for it are held to the file's size plus four times this. A PDF past either, or an encrypted one, fails with 1234.",
    }),
  },
  { additionalProperties: false, default: {} },
);
