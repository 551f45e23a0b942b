// A stand-in for llama-server in the managed engine's lifecycle tests where no real one is built:
// the command line llama-server takes (it answers /props with what it was given), /health that
// answers 503 while "loading", and a fixed chat reply, whole or streamed. FAKE_LLAMA_MODE:
// `fail` exits at once, `slow` streams one piece every 100 ms, `stubborn` ignores SIGTERM, `dies`
// exits 500 ms after it is ready.
import { createServer } from 'node:http';

const args = process.argv.slice(2);
const arg = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};
const mode = process.env.FAKE_LLAMA_MODE ?? '';
if (mode === 'fail') {
  process.stderr.write('error: failed to load model\n');
  process.exit(1);
}
let started = Date.now();
const pieces = ['Hello', ' from', ' the', ' fake', ' server.'];
const usage = { prompt_tokens: 3, completion_tokens: pieces.length, total_tokens: 3 + pieces.length };

const json = (res, status, value) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};

const server = createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  if (req.url === '/health') {
    const ready = Date.now() - started > 100;
    return json(res, ready ? 200 : 503, ready ? { status: 'ok' } : { error: { message: 'Loading model' } });
  }
  if (req.url === '/props') {
    return json(res, 200, {
      default_generation_settings: { n_ctx: Number(arg('--ctx-size')) / Number(arg('--parallel')) },
      chat_template: '{{ messages }}',
      chat_template_caps: { supports_tool_calls: false },
      args,
    });
  }
  if (req.url === '/apply-template') return json(res, 200, { prompt: 'abc' });
  if (req.url === '/tokenize') return json(res, 200, { tokens: [1, 2, 3] });
  if (req.url !== '/v1/chat/completions') return json(res, 404, { error: { message: 'not found' } });
  const request = JSON.parse(body);
  if (!request.stream) {
    return json(res, 200, {
      id: 'fake',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: pieces.join('') }, finish_reason: 'stop' }],
      usage,
    });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (value) => res.write(`data: ${JSON.stringify(value)}\n\n`);
  const chunk = (delta, finish = null) => ({
    id: 'fake',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  send(chunk({ role: 'assistant', content: '' }));
  for (const piece of pieces) {
    if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 100));
    send(chunk({ content: piece }));
  }
  send({ ...chunk({}, 'stop'), usage });
  res.end('data: [DONE]\n\n');
});
server.listen(Number(arg('--port')), arg('--host'), () => {
  // Timed from the moment it listens, however long Node took to start.
  started = Date.now();
  if (mode === 'dies') setTimeout(() => process.exit(3), 600);
});
process.on('SIGTERM', () => {
  if (mode === 'stubborn') return;
  server.close();
  process.exit(0);
});
