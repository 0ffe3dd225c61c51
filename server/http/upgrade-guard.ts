import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Whether the `ws` library already runs a WebSocket on this socket (it marks it with its `websocket` symbol). */
function carriesWebSocket(socket: Socket): boolean {
  return Object.getOwnPropertySymbols(socket).some((symbol) => symbol.description === 'websocket');
}

/**
 * @fastify/websocket routes every upgrade request through Fastify, also those another listener of
 * the server answers itself (the sandbox's exchange sockets under /sandbox): by the time Fastify
 * reached the route, that socket was a WebSocket already, and its handler's second handshake
 * failed with a warning and a stack trace per connection. Such a request is left to its owner.
 */
export function installUpgradeGuard(app: FastifyInstance): void {
  app.addHook('preHandler', (request, reply, done) => {
    if (request.headers.upgrade !== undefined && carriesWebSocket(request.raw.socket)) reply.hijack();
    done();
  });
}
