import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { isAllowed } from '../../../contract/access';
import {
  NOTIFICATIONS_PATH,
  NOTIFICATION_READY,
  SOCKET_AUTH_TIMEOUT_MS,
  SOCKET_POLICY_VIOLATION,
  socketMessages,
} from '../../../contract/api/audit';
import type { Deps } from '../../deps';
import { resolveSession } from '../auth/sessions';
import { SocketHub, type StaffSocket } from './hub';

type RawData = Buffer | ArrayBuffer | Buffer[];
import { NotificationListener } from './listener';

/** Sessions of open sockets are checked again this often; a revoked one is closed. */
const SESSION_RECHECK_MS = 60_000;

/** The first message carries the token: `{ "token": "..." }` or the bare token. */
function tokenOf(data: RawData): string | undefined {
  const bytes = Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? Buffer.from(data) : data;
  const text = bytes.toString('utf8').trim();
  if (text.startsWith('{')) {
    try {
      const value = JSON.parse(text) as { token?: unknown };
      return typeof value.token === 'string' && value.token.trim() !== '' ? value.token.trim() : undefined;
    } catch {
      return undefined;
    }
  }
  const bare = text.replace(/^Bearer\s+/i, '');
  return bare === '' || /\s/.test(bare) ? undefined : bare;
}

export async function registerNotificationRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  if (!app.hasDecorator('websocketServer')) {
    await app.register(websocket, {
      options: { maxPayload: 4096 },
      // Tell clients why the socket ends (1001 Going Away) instead of closing without a code.
      preClose(done) {
        for (const client of app.websocketServer.clients) (client as StaffSocket).close(1001, socketMessages.serverClosing);
        done();
      },
    });
  }
  const hub = new SocketHub();
  const listener = new NotificationListener(deps.pool.options, (notification) => hub.broadcast(notification), deps.log);

  const recheck = setInterval(() => {
    for (const [socket, token] of hub.entries()) {
      resolveSession(deps, token)
        .then((auth) => {
          if (!auth || !isAllowed('notifications', auth.accountType)) socket.close(SOCKET_POLICY_VIOLATION, socketMessages.sessionEnded);
        })
        .catch(() => undefined);
    }
  }, SESSION_RECHECK_MS);
  recheck.unref();

  app.addHook('onClose', async () => {
    clearInterval(recheck);
    hub.closeAll(1001, socketMessages.serverClosing);
    await listener.stop();
  });

  const authenticate = async (socket: StaffSocket, data: RawData): Promise<void> => {
    const token = tokenOf(data);
    const auth = token ? await resolveSession(deps, token) : null;
    if (!token || !auth) return socket.close(SOCKET_POLICY_VIOLATION, socketMessages.invalidToken);
    if (!isAllowed('notifications', auth.accountType)) return socket.close(SOCKET_POLICY_VIOLATION, socketMessages.notStaff);
    await listener.start();
    if (socket.readyState !== socket.OPEN) return;
    hub.add(socket, token);
    socket.send(JSON.stringify({ data: { type: NOTIFICATION_READY, message: socketMessages.ready } }));
  };

  app.get(NOTIFICATIONS_PATH, { websocket: true, config: { access: 'public' }, schema: { hide: true } }, (socket: StaffSocket) => {
    const timer = setTimeout(() => socket.close(SOCKET_POLICY_VIOLATION, socketMessages.authTimeout), SOCKET_AUTH_TIMEOUT_MS);
    socket.once('message', (data: RawData) => {
      clearTimeout(timer);
      authenticate(socket, data).catch((error: unknown) => {
        deps.log.error({ err: error }, 'notification socket setup failed');
        socket.close(1011, socketMessages.unavailable);
      });
    });
    socket.once('close', () => clearTimeout(timer));
  });
}
