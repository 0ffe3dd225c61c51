import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Holds } from '../holds';
import { tradeSocketLimits } from '../limits';
import { travel } from '../pipeline';
import { bump, BYBIT_WS_IDLE_MS, type Sandbox, type TradeSocketHandle } from '../sandbox';
import { newConnId } from './frames';
import { TradeSession } from './session';

/** Path of Bybit's WebSocket order entry under the sandbox's base URL (wss://stream.bybit.com/v5/trade). */
export const TRADE_SOCKET_PATH = '/v5/trade';

function addressOf(request: IncomingMessage): string {
  return (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}

/**
 * Refuses the upgrade past 500 new connections per address in 5 minutes. Bybit's pages say only "do not"
 * (docs/v5/rate-limit/rate-limit.mdx); the stricter reading is the one Bybit documents for its other
 * connection ceiling: "new connections return HTTP 429" (docs/v5/sbe/sbe-basic-info.mdx).
 */
function refuse(socket: Duplex): void {
  socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 17\r\n\r\nToo Many Requests');
}

/**
 * Serves Bybit's /v5/trade on the sandbox's HTTP server (`{base}/v5/trade`): upgrades within the
 * per-address new-connection limit, one TradeSession per socket, the sandbox's one-way latency on every
 * frame each way, Bybit's idle cut. Sockets are cut when the app closes.
 */
export function serveTradeSocket(app: FastifyInstance, sandbox: Sandbox, holds: Holds): void {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 64 * 1024 });
  const path = `${app.prefix}${TRADE_SOCKET_PATH}`;
  let sequence = 0;

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((request.url ?? '').split('?')[0] !== path) return;
    const ip = addressOf(request);
    const rule = sandbox.options.tradeConnectionsPerIp ?? tradeSocketLimits.newConnectionsPerIp;
    if (!sandbox.tradeConnectionWindow.take(ip, rule.limit, rule.windowMs, sandbox.now())) {
      bump(sandbox.counters.tradeConnectionsRefused, ip);
      refuse(socket);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sandbox.counters.tradeConnections += 1;
      sequence += 1;
      attach(sandbox, holds, ws, new TradeSession(sandbox, holds, ip, newConnId(sequence)));
    });
  };

  app.server.on('upgrade', onUpgrade);
  app.addHook('preClose', async () => {
    app.server.off('upgrade', onUpgrade);
    for (const ws of wss.clients) ws.terminate();
    wss.close();
  });
}

function attach(sandbox: Sandbox, holds: Holds, ws: WebSocket, session: TradeSession): void {
  const handle: TradeSocketHandle = {
    account: () => session.account,
    drop: () => ws.terminate(),
    restart: () => {
      session.restarting = true;
    },
  };
  sandbox.tradeSockets.add(handle);
  const idleMs = sandbox.options.tradeIdleMs ?? BYBIT_WS_IDLE_MS;
  const idle = setTimeout(() => ws.terminate(), idleMs);
  idle.unref();
  let open = true;
  const relay = async (text: string, readAt: number) => {
    // A frame still on the wire when the connection drops never arrives.
    if (!(await travel(sandbox, holds)) || !open) return;
    const answer = await session.handle(text, readAt + sandbox.latencyMs);
    if (!answer || !open) return;
    if (!(await travel(sandbox, holds)) || !open) return;
    ws.send(JSON.stringify(answer));
  };
  ws.on('message', (data, isBinary) => {
    idle.refresh();
    if (!isBinary) relay(data.toString(), sandbox.now()).catch(() => ws.terminate());
  });
  ws.on('close', () => {
    open = false;
    clearTimeout(idle);
    sandbox.tradeSockets.delete(handle);
    session.closed();
  });
  ws.on('error', () => ws.terminate());
}
