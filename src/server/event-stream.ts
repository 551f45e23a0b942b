import type { FastifyReply } from 'fastify';

const HEADERS = {
  'content-type': 'text/event-stream;charset=UTF-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  // Proxies such as nginx buffer responses unless told not to, which would hold every chunk back.
  'x-accel-buffering': 'no',
};

function write(reply: FastifyReply, text: string): Promise<void> | undefined {
  if (reply.raw.write(text)) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      reply.raw.off('drain', done);
      reply.raw.off('close', done);
      resolve();
    };
    reply.raw.on('drain', done);
    reply.raw.on('close', done);
  });
}

/**
 * Sends `events` as server-sent events: each one `data: <json>` and a blank line, then
 * `data: [DONE]`. The first event is awaited before the 200 status is written, so a failure that
 * comes first is still answered as an ordinary JSON error. Honours backpressure; stops pulling
 * events when the client goes away.
 */
export async function sendEventStream(reply: FastifyReply, events: AsyncIterable<unknown>): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  const first = await iterator.next();
  reply.hijack();
  reply.raw.writeHead(200, HEADERS);
  let next = first;
  try {
    while (!next.done) {
      if (reply.raw.destroyed) return;
      const pending = write(reply, `data: ${JSON.stringify(next.value)}\n\n`);
      if (pending) await pending;
      next = await iterator.next();
    }
    if (!reply.raw.destroyed) reply.raw.end('data: [DONE]\n\n');
  } finally {
    if (!next.done) await iterator.return?.();
    if (!reply.raw.writableEnded) reply.raw.end();
  }
}
