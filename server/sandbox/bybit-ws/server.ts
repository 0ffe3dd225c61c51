import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { Holds } from '../holds';
import { tradeSocketLimits } from '../limits';
import { travel } from '../pipeline';
import { bump, BYBIT_WS_IDLE_MS, type Sandbox, type TradeSocketHandle } from '../sandbox';
import { mountSocket } from '../ws-mount';
import { newConnId } from './frames';
import { TradeSession } from './session';

/** Path of Bybit's WebSocket order entry under the sandbox's base URL (wss://stream.bybit.com/v5/trade). */
export const TRADE_SOCKET_PATH = '/v5/trade';

/**
 * Bybit's new-connection ceiling of its stream domain (stream.bybit.com: /v5/trade and /v5/private share it,
 * "counted per WebSocket domain", docs/v5/websocket/wss-authentication.mdx): past 500 new connections per
 * address in 5 minutes the upgrade is refused. Bybit's pages say only "do not"; the stricter reading is the
 * one Bybit documents for its other connection ceiling: "new connections return HTTP 429"
 * (docs/v5/sbe/sbe-basic-info.mdx). Answers whether the connection may open.
 */
export function takeBybitStreamConnection(sandbox: Sandbox, ip: string): boolean {
  const rule = sandbox.options.tradeConnectionsPerIp ?? tradeSocketLimits.newConnectionsPerIp;
  if (sandbox.tradeConnectionWindow.take(ip, rule.limit, rule.windowMs, sandbox.now())) return true;
  bump(sandbox.counters.tradeConnectionsRefused, ip);
  return false;
}

/**
 * Serves Bybit's /v5/trade on the sandbox's HTTP server (`{base}/v5/trade`): upgrades within the
 * per-address new-connection limit, one TradeSession per socket, the sandbox's one-way latency on every
 * frame each way, Bybit's idle cut. Sockets are cut when the app closes.
 */
export function serveTradeSocket(app: FastifyInstance, sandbox: Sandbox, holds: Holds): void {
  let sequence = 0;
  mountSocket(app, TRADE_SOCKET_PATH, (upgrade) => {
    if (!takeBybitStreamConnection(sandbox, upgrade.ip)) return upgrade.refuse(429, 'Too Many Requests');
    upgrade.accept((ws) => {
      sandbox.counters.tradeConnections += 1;
      sequence += 1;
      attach(sandbox, holds, ws, new TradeSession(sandbox, holds, upgrade.ip, newConnId(sequence)));
    });
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
