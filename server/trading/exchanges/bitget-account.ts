import { createHash } from 'node:crypto';
import type { Credentials, MarginModeName, MarketInfo, PositionModeName } from './types';

/** What Bitget's single-account read (GET /api/v2/mix/account/account, 10 / s per account) says of one symbol. */
export interface SymbolSettings {
  /** Product-wide (USDT-FUTURES): the Change-Hold-Mode doc. */
  positionMode: PositionModeName;
  /** Per symbol. */
  marginMode: MarginModeName;
}

export type SymbolSettingsReader = (credentials: Credentials, market: MarketInfo) => Promise<SymbolSettings>;

/**
 * The Bitget position mode (per account and product type) and margin mode (per account and symbol)
 * this process knows, read from the exchange the first time they are needed and then kept: the
 * position mode is never set when it already matches, and every order carries the symbol's own margin
 * mode (LIVE-FIDELITY B3, B4). When the exchange says an order's terms are wrong, `forget` and read again.
 */
export class BitgetAccountSettings {
  private readonly positionModes = new Map<string, PositionModeName>();
  private readonly marginModes = new Map<string, MarginModeName>();
  private readonly reading = new Map<string, Promise<SymbolSettings>>();

  constructor(private readonly read: SymbolSettingsReader) {}

  /** The account's position mode and the symbol's margin mode: from memory, else one read. */
  async of(credentials: Credentials, market: MarketInfo): Promise<SymbolSettings> {
    const account = accountKey(credentials);
    const positionMode = this.positionModes.get(account);
    const marginMode = this.marginModes.get(`${account}:${market.symbol}`);
    if (positionMode && marginMode) return { positionMode, marginMode };
    return this.fresh(credentials, market);
  }

  /** Whether both of a symbol's settings are in memory (`of` would send nothing). */
  knows(credentials: Credentials, symbol: string): boolean {
    const account = accountKey(credentials);
    return this.positionModes.has(account) && this.marginModes.has(`${account}:${symbol}`);
  }

  /** The account's position mode (product-wide): from memory, else one read (of `market`). */
  async positionMode(credentials: Credentials, market: MarketInfo): Promise<PositionModeName> {
    return this.positionModes.get(accountKey(credentials)) ?? (await this.fresh(credentials, market)).positionMode;
  }

  /** Reads both again (concurrent callers share one read) and remembers them. */
  fresh(credentials: Credentials, market: MarketInfo): Promise<SymbolSettings> {
    const account = accountKey(credentials);
    const key = `${account}:${market.symbol}`;
    const running = this.reading.get(key);
    if (running) return running;
    const read = this.read(credentials, market).then((settings) => {
      this.positionModes.set(account, settings.positionMode);
      this.marginModes.set(key, settings.marginMode);
      return settings;
    });
    this.reading.set(key, read);
    const done = () => {
      if (this.reading.get(key) === read) this.reading.delete(key);
    };
    read.then(done, done);
    return read;
  }

  /** Learned without a read of its own (a position row, a successful mode change). */
  remember(credentials: Credentials, learned: { positionMode?: PositionModeName | undefined; symbol?: string; marginMode?: MarginModeName | undefined }): void {
    const account = accountKey(credentials);
    if (learned.positionMode) this.positionModes.set(account, learned.positionMode);
    if (learned.symbol && learned.marginMode) this.marginModes.set(`${account}:${learned.symbol}`, learned.marginMode);
  }

  forget(credentials: Credentials, symbol: string): void {
    const account = accountKey(credentials);
    this.positionModes.delete(account);
    this.marginModes.delete(`${account}:${symbol}`);
  }
}

/** Accounts are told apart by a hash of their key: the key itself is not kept here. */
function accountKey(credentials: Credentials): string {
  return createHash('sha256').update(credentials.apiKey).digest('hex').slice(0, 24);
}
