import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { NOTIFICATION_CHANNEL, type StaffNotification } from '../../lib/notify';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

/**
 * The process's one LISTEN connection on NOTIFICATION_CHANNEL (a dedicated client, outside the
 * pool). Started by the first subscriber, reconnects with backoff when the connection drops,
 * stopped with the app. Notifications published while it is reconnecting are not replayed: they
 * only light the audit red dots, and the audit lists themselves are the record.
 */
export class NotificationListener {
  private client: pg.Client | undefined;
  private starting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;
  private stopped = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly deliver: (notification: StaffNotification) => void,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Resolves once LISTEN is active (at once if it already is). */
  start(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('The notification listener is stopped'));
    if (this.client) return Promise.resolve();
    this.starting ??= this.connect().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ ...this.config, application_name: 'notifications' });
    client.on('notification', (message) => {
      if (message.channel !== NOTIFICATION_CHANNEL || !message.payload) return;
      const notification = parse(message.payload);
      if (notification) this.deliver(notification);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    try {
      await client.connect();
      await client.query(`listen ${NOTIFICATION_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = RETRY_MIN_MS;
  }

  private lost(client: pg.Client, error: Error | undefined): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.log.warn({ err: error }, 'notification listener lost its connection; reconnecting');
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retryTimer) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.start().catch((error: unknown) => {
        this.log.warn({ err: error }, 'notification listener could not reconnect');
        this.scheduleRetry();
      });
    }, delay);
    this.retryTimer.unref();
  }

  /** True while LISTEN is active. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.starting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}

function parse(payload: string): StaffNotification | undefined {
  try {
    const value = JSON.parse(payload) as Partial<StaffNotification>;
    if (typeof value.type !== 'number' || typeof value.message !== 'string') return undefined;
    return { type: value.type, message: value.message };
  } catch {
    return undefined;
  }
}
