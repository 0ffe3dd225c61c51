import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';

/** One WebSocket upgrade request on a sandbox path: accept it or refuse it with an HTTP status. */
export interface Upgrade {
  request: IncomingMessage;
  /** The connection's own address (no X-Forwarded-For: the exchanges count the socket's peer). */
  ip: string;
  /** Query parameters of the upgrade URL (Bybit `max_active_time`). */
  query: URLSearchParams;
  accept(onOpen: (ws: WebSocket) => void): void;
  refuse(status: number, reason: string): void;
}

function addressOf(request: IncomingMessage): string {
  return (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`);
}

/**
 * Serves WebSocket upgrades of `path` under the app's prefix on the app's own HTTP server (the sandbox's
 * sockets share its port, as the exchanges' share a domain). Every socket is cut when the app closes.
 */
export function mountSocket(app: FastifyInstance, path: string, onUpgrade: (upgrade: Upgrade) => void): void {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 64 * 1024 });
  const fullPath = `${app.prefix}${path}`;
  const listener = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = request.url ?? '';
    const mark = url.indexOf('?');
    if ((mark < 0 ? url : url.slice(0, mark)) !== fullPath) return;
    // Node's HTTP server lets go of an upgraded socket's errors: a client that resets it before ws takes
    // it over (or while it is being refused) would otherwise throw an uncaught ECONNRESET.
    socket.on('error', () => socket.destroy());
    onUpgrade({
      request,
      ip: addressOf(request),
      query: new URLSearchParams(mark < 0 ? '' : url.slice(mark + 1)),
      accept: (onOpen) => wss.handleUpgrade(request, socket, head, onOpen),
      refuse: (status, reason) => refuse(socket, status, reason),
    });
  };
  app.server.on('upgrade', listener);
  app.addHook('preClose', async () => {
    app.server.off('upgrade', listener);
    for (const ws of wss.clients) ws.terminate();
    wss.close();
  });
}
