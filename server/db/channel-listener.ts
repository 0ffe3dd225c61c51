import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

export interface ChannelHandlers {
  /** A payload of the channel, in commit order. */
  message(payload: string): void;
  /** LISTEN became active (first start and every reconnection). */
  listening?(): void;
  /** The connection was lost: notifications sent from now until `listening` are never seen. */
  lost?(): void;
}

/**
 * One LISTEN connection on one channel (a dedicated client, outside the pool). Started by the
 * first `start`, reconnects with backoff when the connection drops, stopped with the app.
 * Notifications sent while it reconnects are not replayed: `lost` tells the owner so.
 */
export class ChannelListener {
  private client: pg.Client | undefined;
  private starting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;
  private stopped = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly channel: string,
    private readonly handlers: ChannelHandlers,
    private readonly log: FastifyBaseLogger,
    /** How the connection shows in pg_stat_activity. */
    private readonly applicationName: string,
  ) {}

  /** Resolves once LISTEN is active (at once if it already is). */
  start(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error(`The ${this.channel} listener is stopped`));
    if (this.client) return Promise.resolve();
    this.starting ??= this.connect().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ ...this.config, application_name: this.applicationName });
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload !== undefined) this.handlers.message(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    try {
      await client.connect();
      await client.query(`listen ${this.channel}`);
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
    this.handlers.listening?.();
  }

  private lost(client: pg.Client, error: Error | undefined): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    this.handlers.lost?.();
    if (this.stopped) return;
    this.log.warn({ err: error }, `${this.channel} listener lost its connection; reconnecting`);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retryTimer) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.start().catch((error: unknown) => {
        this.log.warn({ err: error }, `${this.channel} listener could not reconnect`);
        this.scheduleRetry();
      });
    }, delay);
    this.retryTimer.unref();
  }

  /** True while LISTEN is active. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** The backend pid of the LISTEN connection (tests end it to simulate a lost connection). */
  get backendPid(): number | undefined {
    return (this.client as (pg.Client & { processID?: number }) | undefined)?.processID;
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
      this.handlers.lost?.();
    }
  }
}
