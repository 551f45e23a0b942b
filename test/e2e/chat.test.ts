import { afterAll, beforeAll } from 'vitest';
import { CHAT_MODELS, describeChatWire } from './chat-wire.js';
import { type E2eServer, startServer } from './support.js';

/** One app, listening on a real socket and answering app.inject too. */
let server: E2eServer;
beforeAll(async () => {
  server = await startServer(CHAT_MODELS, { listen: true });
});
afterAll(async () => {
  await server?.close();
});

describeChatWire('inject', () => server);
describeChatWire('socket', () => server);
