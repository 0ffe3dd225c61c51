import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_READY, SOCKET_POLICY_VIOLATION, socketMessages } from '../../contract/api/audit';
import { AccountType, ExitType, NotificationType, OrderEntryType } from '../../contract/enums';
import { publishNotification } from '../../server/lib/notify';
import { recordEntryAudit, recordExitAudit } from '../../server/lib/audits';
import { personWithToken } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

/** The `ws` client (Node 20 has no global WebSocket; the package ships no types). */
interface ClientSocket {
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  send(data: string): void;
  close(): void;
}
const WebSocketClient = createRequire(import.meta.url)('ws') as new (url: string) => ClientSocket;

interface Connection {
  socket: ClientSocket;
  next(timeoutMs?: number): Promise<{ data: { type: number; message: string } }>;
  closed: Promise<{ code: number; reason: string }>;
}

async function connect(url: string): Promise<Connection> {
  const socket = new WebSocketClient(url);
  const queue: string[] = [];
  const waiters: Array<(text: string) => void> = [];
  socket.on('message', (data) => {
    const waiter = waiters.shift();
    if (waiter) waiter(data.toString());
    else queue.push(data.toString());
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    socket.on('open', resolve);
    socket.on('error', reject);
  });
  return {
    socket,
    closed,
    next(timeoutMs = 5000) {
      const queued = queue.shift();
      if (queued !== undefined) return Promise.resolve(JSON.parse(queued));
      return new Promise((resolve, reject) => {
        const waiter = (text: string) => {
          clearTimeout(timer);
          resolve(JSON.parse(text));
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error('no message within the timeout'));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
  };
}

let ctx: TestContext;
let second: TestContext;
let url: string;
let adminToken: string;
let employeeToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  second = await createTestContext({ database: ctx.database });
  const address = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  url = `${address.replace('http', 'ws')}/api/notifications`;
  adminToken = (await personWithToken(ctx, AccountType.Admin)).token;
  employeeToken = (await personWithToken(ctx, AccountType.Employee)).token;
});
afterAll(async () => {
  await second?.close();
  await ctx?.close();
});

async function subscribed(first: string): Promise<Connection> {
  const connection = await connect(url);
  connection.socket.send(first);
  expect(await connection.next()).toEqual({ data: { type: NOTIFICATION_READY, message: socketMessages.ready } });
  return connection;
}

describe('GET /api/notifications (websocket)', () => {
  it('closes with a policy violation for a wrong token, a customer and an agent', async () => {
    const wrong = await connect(url);
    wrong.socket.send(JSON.stringify({ token: 'not-a-token' }));
    expect(await wrong.closed).toEqual({ code: SOCKET_POLICY_VIOLATION, reason: socketMessages.invalidToken });
    for (const type of [AccountType.Customer, AccountType.Agent]) {
      const person = await personWithToken(ctx, type);
      const socket = await connect(url);
      socket.socket.send(person.token);
      expect(await socket.closed).toEqual({ code: SOCKET_POLICY_VIOLATION, reason: socketMessages.notStaff });
    }
  });

  it('pushes type 1 to an admin after recordEntryAudit and type 2 to an employee (bare token) after a failed exit', async () => {
    const admin = await subscribed(JSON.stringify({ token: adminToken }));
    const employee = await subscribed(employeeToken);
    await recordEntryAudit(ctx.deps.db, { orderId: null, customerId: null, strategyId: null, entryType: OrderEntryType.Api, message: 'Insufficient balance' });
    const expected = { data: { type: NotificationType.EntryFailure, message: 'Insufficient balance' } };
    expect(await admin.next()).toEqual(expected);
    expect(await employee.next()).toEqual(expected);
    await recordExitAudit(ctx.deps.db, { orderId: null, customerId: null, strategyId: null, exitType: ExitType.ByAdmin, message: 'Close refused', isError: true });
    expect(await admin.next()).toEqual({ data: { type: NotificationType.ExitFailure, message: 'Close refused' } });
    admin.socket.close();
    employee.socket.close();
  });

  it('delivers a notification published by a second app instance on the same database', async () => {
    const admin = await subscribed(JSON.stringify({ token: adminToken }));
    await publishNotification(second.deps.db, { type: NotificationType.EntryFailure, message: 'from the other process' });
    expect(await admin.next()).toEqual({ data: { type: 1, message: 'from the other process' } });
    admin.socket.close();
  });

  it('listens again after its database connection is killed', async () => {
    const admin = await subscribed(adminToken);
    const killed = await ctx.handle.pool.query(
      `select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = 'notifications' and datname = current_database()`,
    );
    expect(killed.rows.length).toBeGreaterThan(0);
    let received: unknown;
    for (let attempt = 0; attempt < 40 && received === undefined; attempt++) {
      await publishNotification(second.deps.db, { type: NotificationType.ExitFailure, message: `after reconnect ${attempt}` });
      received = await admin.next(250).catch(() => undefined);
    }
    expect(received).toMatchObject({ data: { type: 2 } });
    admin.socket.close();
  });

  it('closes open sockets when the app closes', async () => {
    const other = await createTestContext({ database: ctx.database });
    const address = await other.app.listen({ host: '127.0.0.1', port: 0 });
    const socket = await connect(`${address.replace('http', 'ws')}/api/notifications`);
    socket.socket.send(adminToken);
    expect((await socket.next()).data.type).toBe(NOTIFICATION_READY);
    await other.close();
    expect((await socket.closed).code).toBe(1001);
  });
});
