import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowUpstreamOptions {
  chunks?: number;
  delayMs?: number;
  /** The text of each content delta; default `word `. */
  word?: string;
}

export interface SlowUpstream {
  /** The OpenAI-compatible base URL, e.g. http://127.0.0.1:PORT/v1. */
  baseUrl: string;
  /** Streams being written right now. */
  readonly open: number;
  /** Answers (streamed or not) whose client went away before they were complete. */
  readonly aborted: number;
  /** Chat calls received so far. */
  readonly requests: number;
  /** `traceparent` headers of the chat requests received (tracing on). */
  readonly traceparents: string[];
  /** The chat requests' bodies, parsed, in order. */
  readonly bodies: unknown[];
  close(): Promise<void>;
}

/**
 * A stand-in OpenAI-compatible chat upstream that streams slowly (loopback only): `chunks`
 * pieces `delayMs` apart, then a usage chunk when asked and `[DONE]`. Lets tests hold streams
 * open for as long as they need without a model.
 */
export async function startSlowUpstream(options: SlowUpstreamOptions = {}): Promise<SlowUpstream> {
  const chunks = options.chunks ?? 20;
  const delayMs = options.delayMs ?? 50;
  const word = options.word ?? 'word ';
  let open = 0;
  let aborted = 0;
  let requests = 0;
  const traceparents: string[] = [];
  const bodies: unknown[] = [];
  const server: Server = createServer((req, res) => {
    const traceparent = req.headers['traceparent'];
    if (typeof traceparent === 'string') traceparents.push(traceparent);
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"object":"list","data":[{"id":"stand-in","object":"model"}]}');
      return;
    }
    requests++;
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { stream?: boolean; stream_options?: { include_usage?: boolean } };
      bodies.push(body);
      const base = { id: 'chatcmpl-standin', created: Math.floor(Date.now() / 1000), model: 'stand-in' };
      const usage = { prompt_tokens: 5, completion_tokens: chunks, total_tokens: 5 + chunks };
      res.on('close', () => {
        if (!res.writableFinished) aborted++;
      });
      if (!body.stream) {
        setTimeout(() => {
          const message = { role: 'assistant', content: 'word '.repeat(chunks) };
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              ...base,
              object: 'chat.completion',
              choices: [{ index: 0, message, finish_reason: 'stop' }],
              usage,
            }),
          );
        }, chunks * delayMs);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      open++;
      const event = (obj: unknown) => res.write(`data: ${typeof obj === 'string' ? obj : JSON.stringify(obj)}\n\n`);
      const chunk = (delta: object, finish: string | null) => ({
        ...base,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
      event(chunk({ role: 'assistant', content: '' }, null));
      let sent = 0;
      const timer = setInterval(() => {
        if (sent < chunks) {
          sent++;
          event(chunk({ content: word }, null));
          return;
        }
        clearInterval(timer);
        event(chunk({}, 'stop'));
        if (body.stream_options?.include_usage) event({ ...base, object: 'chat.completion.chunk', choices: [], usage });
        event('[DONE]');
        res.end();
      }, delayMs);
      res.on('close', () => {
        clearInterval(timer);
        open--;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get open() {
      return open;
    },
    get aborted() {
      return aborted;
    },
    get requests() {
      return requests;
    },
    traceparents,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The config section that points `gen-4.6` at an upstream. */
export const upstreamModels = (baseUrl: string) => ({
  embedded: { default_model: '' },
  models: { 'gen-4.6': { deployments: [{ engine: 'openai-compatible', base_url: baseUrl, model: 'stand-in' }] } },
});
