/**
 * Fake OpenAI-compatible upstream for the gateway benchmark: every POST to `/v1/chat/completions`
 * is answered at once with a fixed, vLLM-shaped stream of 10 content chunks, a finish chunk, a usage
 * chunk and `data: [DONE]`, each event written on its own as a real server would; a request with
 * `"stream":false` gets the same reply as one JSON completion. Listens on
 * 127.0.0.1 only; reports its own CPU time so the benchmark can compare.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveParent } from './ipc.js';

const WORDS = ['The', ' quick', ' brown', ' fox', ' jumps', ' over', ' the', ' lazy', ' dog', '.'];
const head = '{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1747393912,"model":"fake","choices":[';
const EVENTS: string[] = [
  `data: ${head}{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
  ...WORDS.map(
    (w) =>
      `data: ${head}{"index":0,"delta":{"content":${JSON.stringify(w)}},"logprobs":null,"finish_reason":null}]}\n\n`,
  ),
  `data: ${head}{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop","stop_reason":null}]}\n\n`,
  `data: ${head}],"usage":{"prompt_tokens":12,"total_tokens":${12 + WORDS.length},"completion_tokens":${WORDS.length}}}\n\n`,
  'data: [DONE]\n\n',
];

const WHOLE = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1747393912,
  model: 'fake',
  choices: [{ index: 0, message: { role: 'assistant', content: WORDS.join('') }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, total_tokens: 12 + WORDS.length, completion_tokens: WORDS.length },
});

let requests = 0;
const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    body += chunk;
  });
  req.on('end', () => {
    requests++;
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    if (body.includes('"stream":false')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(WHOLE);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    for (const event of EVENTS) res.write(event);
    res.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveParent(
    {
      cpu: () => ({ ...process.cpuUsage(), requests }),
      stop: () => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve())).then(() => null);
      },
    },
    { port },
  );
});
// Stops by itself after 20 minutes whatever happens.
setTimeout(() => process.exit(3), 20 * 60_000).unref();
