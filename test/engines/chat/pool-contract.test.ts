import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDeploymentPool } from '../../../src/engines/chat/pool.js';
import { runChatEngineContract } from '../../contracts/chat-engine.contract.js';
import { engineFor } from '../openai-compatible/helpers.js';
import { ReplayServer } from '../openai-compatible/replay-server.js';
import { vllmLike } from '../openai-compatible/vllm-like.js';

/** A loopback address where nothing listens: connections are refused. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

// The pool is a ChatEngine like any other: it keeps the seam's contract whether every deployment
// answers or one is down (requests move to the other before anything is yielded).
runChatEngineContract('deployment pool (two live deployments)', async () => {
  const servers = [await ReplayServer.start(vllmLike), await ReplayServer.start(vllmLike)];
  const engine = createDeploymentPool(servers.map((s) => engineFor(s.url, { tokenizeUrl: `${s.url}/tokenize` })));
  return {
    engine,
    close: async () => {
      await engine.close();
      await Promise.all(servers.map((s) => s.close()));
    },
  };
});

runChatEngineContract('deployment pool (first deployment down)', async () => {
  const server = await ReplayServer.start(vllmLike);
  const dead = await deadUrl();
  const engine = createDeploymentPool([
    engineFor(dead, { tokenizeUrl: `${dead}/tokenize` }),
    engineFor(server.url, { tokenizeUrl: `${server.url}/tokenize` }),
  ]);
  return {
    engine,
    close: async () => {
      await engine.close();
      await server.close();
    },
  };
});
