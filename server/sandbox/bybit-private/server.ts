import type { FastifyInstance } from 'fastify';
import { newConnId } from '../bybit-ws/frames';
import { takeBybitStreamConnection } from '../bybit-ws/server';
import { bump, BYBIT_WS_IDLE_MS, type Sandbox } from '../sandbox';
import { PrivateSocket } from '../streams/private-socket';
import { mountSocket } from '../ws-mount';
import { BybitPushEncoder } from './frames';
import { BybitPrivateSession } from './session';

/** Path of Bybit's private stream under the sandbox's base URL (wss://stream.bybit.com/v5/private). */
export const PRIVATE_STREAM_PATH = '/v5/private';

/**
 * `max_active_time`: "the lowest value is 30s, the highest value is 600s ... You can also pass 1m, 2m"
 * (docs/v5/websocket/wss-authentication.mdx). Out of range is held to the range; anything else is ignored.
 */
export function activeTimeOf(value: string | null): number | undefined {
  const match = /^(\d+)(s|m)$/.exec(value ?? '');
  if (!match) return undefined;
  const ms = Number(match[1]) * (match[2] === 'm' ? 60_000 : 1000);
  return Math.min(Math.max(ms, 30_000), 600_000);
}

/**
 * Serves Bybit's /v5/private on the sandbox's HTTP server: upgrades within the stream domain's
 * new-connection ceiling (shared with /v5/trade), refused with HTTP 503 while a reconnect refusal of the
 * exchange holds; one BybitPrivateSession per socket; the account events of the sandbox pushed as
 * docs/v5/websocket/private/*.mdx frames.
 */
export function servePrivateStream(app: FastifyInstance, sandbox: Sandbox): void {
  sandbox.streams.setEncoder('bybit', new BybitPushEncoder(sandbox));
  let sequence = 0;
  mountSocket(app, PRIVATE_STREAM_PATH, (upgrade) => {
    if (sandbox.streamFaults.refused({ exchange: 'bybit', accountIds: [] }, sandbox.now())) {
      bump(sandbox.counters.streamConnectionsRefused, `bybit:${upgrade.ip}`);
      return upgrade.refuse(503, 'Service Unavailable');
    }
    if (!takeBybitStreamConnection(sandbox, upgrade.ip)) return upgrade.refuse(429, 'Too Many Requests');
    const idleMs = activeTimeOf(upgrade.query.get('max_active_time')) ?? sandbox.options.privateIdleMs ?? BYBIT_WS_IDLE_MS;
    upgrade.accept((ws) => {
      sandbox.counters.streamConnections.bybit += 1;
      sequence += 1;
      const socket = new PrivateSocket('bybit', sandbox, ws, upgrade.ip);
      const session = new BybitPrivateSession(socket, newConnId(sequence), idleMs);
      socket.start(session, () => session.touched());
    });
  });
}
