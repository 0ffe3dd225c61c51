import type { FastifyInstance } from 'fastify';
import { bitgetStreamLimits, type BitgetStreamLimits } from '../limits';
import { bump, type Sandbox } from '../sandbox';
import { PrivateSocket } from '../streams/private-socket';
import { mountSocket, type Upgrade } from '../ws-mount';
import { BitgetPushEncoder } from './frames';
import { BitgetPrivateSession, type BitgetStreamTimes } from './session';

/** Path of Bitget's private WebSocket under the sandbox's base URL (wss://ws.bitget.com/v2/ws/private). */
export const BITGET_PRIVATE_PATH = '/v2/ws/private';

export function bitgetLimitsOf(sandbox: Sandbox): BitgetStreamLimits {
  return { ...bitgetStreamLimits, ...sandbox.options.bitgetStreamLimits };
}

/** The keepalive cuts: the older page's 30 s (strictness bitgetStreamKeepalive30s) or the newer 2 minutes; options override. */
export function timesOf(strict: boolean, limits: BitgetStreamLimits): BitgetStreamTimes {
  return {
    pingTimeoutMs: limits.pingTimeoutMs ?? (strict ? 30_000 : 120_000),
    subscribeTimeoutMs: limits.subscribeTimeoutMs ?? (strict ? 30_000 : undefined),
    maxLifetimeMs: limits.maxLifetimeMs,
  };
}

/** Why an upgrade from this address is refused now, if it is: a reconnect refusal (503), or a per-address ceiling (429). */
function refusalOf(sandbox: Sandbox, limits: BitgetStreamLimits, open: number, ip: string): [number, string] | undefined {
  if (sandbox.streamFaults.refused({ exchange: 'bitget', accountIds: [] }, sandbox.now())) return [503, 'Service Unavailable'];
  if (open >= limits.connectionsPerIp) return [429, 'Too Many Requests'];
  const rule = limits.newConnectionsPerIp;
  if (!sandbox.bitgetConnectionWindow.take(ip, rule.limit, rule.windowMs, sandbox.now())) return [429, 'Too Many Requests'];
  return undefined;
}

/**
 * Serves Bitget's /v2/ws/private on the sandbox's HTTP server: upgrades within Bitget's per-address ceilings
 * (100 open, 300 new in 5 minutes; HTTP 429 past them, Bitget says only that it refuses), one
 * BitgetPrivateSession per socket, the sandbox's account events pushed as the contract channels' frames.
 */
export function serveBitgetPrivateStream(app: FastifyInstance, sandbox: Sandbox): void {
  sandbox.streams.setEncoder('bitget', new BitgetPushEncoder(sandbox));
  const openByIp = new Map<string, number>();
  mountSocket(app, BITGET_PRIVATE_PATH, (upgrade: Upgrade) => {
    const limits = bitgetLimitsOf(sandbox);
    const refusal = refusalOf(sandbox, limits, openByIp.get(upgrade.ip) ?? 0, upgrade.ip);
    if (refusal) {
      bump(sandbox.counters.streamConnectionsRefused, `bitget:${upgrade.ip}`);
      return upgrade.refuse(...refusal);
    }
    upgrade.accept((ws) => {
      sandbox.counters.streamConnections.bitget += 1;
      openByIp.set(upgrade.ip, (openByIp.get(upgrade.ip) ?? 0) + 1);
      ws.on('close', () => openByIp.set(upgrade.ip, (openByIp.get(upgrade.ip) ?? 1) - 1));
      const socket = new PrivateSocket('bitget', sandbox, ws, upgrade.ip);
      const session = new BitgetPrivateSession(socket, limits, timesOf(sandbox.strictness.bitgetStreamKeepalive30s, limits));
      socket.start(session, (text) => session.arrived(text));
    });
  });
}
