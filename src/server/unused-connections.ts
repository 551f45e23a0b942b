import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Closing the app closes the connections that carry no request. Node's `server.close()` closes the
 * idle keep-alive ones, but counts a connection that has not sent a byte yet as busy (its first
 * request may be on the way) and stops the headers timeout that would otherwise end it. A client's
 * spare connection (browsers preconnect; Node's fetch opens one after a stream it cut) then holds
 * the close until the client drops it: up to the keep-alive timeout the server advertised. A
 * connection that has sent nothing carries no request, so closing it loses nothing.
 */
export function closeUnusedConnectionsOnClose(app: FastifyInstance): void {
  const open = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  app.addHook('preClose', (done) => {
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
    done();
  });
}
