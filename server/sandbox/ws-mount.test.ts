import net from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { mountSocket, type Upgrade } from './ws-mount';

const apps: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A sandbox app whose socket path hands each upgrade to `held` without answering it yet. */
async function appHoldingUpgrades(held: (upgrade: Upgrade) => void): Promise<number> {
  const app = Fastify();
  mountSocket(app, '/ws', held);
  await app.listen({ host: '127.0.0.1', port: 0 });
  apps.push(app);
  return (app.server.address() as net.AddressInfo).port;
}

/** Sends an upgrade request, then resets the connection (RST) once the server holds it. */
async function resetAfterUpgrade(port: number, heldOnServer: Promise<Upgrade>): Promise<Upgrade> {
  const client = net.connect({ host: '127.0.0.1', port });
  await new Promise((resolve) => client.once('connect', resolve));
  client.write('GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
  const upgrade = await heldOnServer;
  client.resetAndDestroy();
  return upgrade;
}

describe('a socket path of the sandbox', () => {
  it('survives a client that resets its connection while the upgrade is held or being refused (no uncaught ECONNRESET)', async () => {
    let hand: (upgrade: Upgrade) => void = () => undefined;
    const port = await appHoldingUpgrades((upgrade) => hand(upgrade));
    for (const answer of ['held', 'refused'] as const) {
      const held = new Promise<Upgrade>((resolve) => (hand = resolve));
      const upgrade = await resetAfterUpgrade(port, held);
      if (answer === 'refused') upgrade.refuse(429, 'Too Many Requests');
      const socket = upgrade.request.socket;
      await new Promise((resolve) => (socket.destroyed ? resolve(undefined) : socket.once('close', resolve)));
      expect(socket.destroyed).toBe(true);
    }
  });
});
