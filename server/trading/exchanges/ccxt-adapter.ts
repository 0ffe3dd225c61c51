import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange, Market, Order, Position as CcxtPosition } from 'ccxt';
import type { CcxtClient } from './ccxt-client';
import type { AccountStreams } from './streams/account-streams';
import { newsOf } from './streams/news';
import { byDeadline } from './by-deadline';
import { failure, toExchangeFailure, UNCHANGED_CODES } from './errors';
import { linearUsdtMarkets } from './markets';
import {
  type AdapterHealth,
  type AccountNews,
  ExchangeFailure,
  type AttachedLeg,
  type Balance,
  type CostRecord,
  type Credentials,
  type EntryChannel,
  type EntryRequest,
  type ExchangeAdapter,
  type ExchangeId,
  type KeyCheck,
  type Liquidation,
  type LiveOrder,
  type MarketInfo,
  type OrderKind,
  type PlacedOrder,
  type Position,
  type PositionModeName,
  type PositionSide,
  type ReduceRequest,
  type RiskTier,
  type SessionWarmth,
  type StopLossRequest,
  type TakeProfitRequest,
  type TrailingStopRequest,
} from './types';

export type OrderParams = Record<string, unknown>;

/** One create-order call as ccxt takes it (the market is the placement's own). */
export interface OrderSpec {
  type: 'market' | 'limit';
  side: 'buy' | 'sell';
  amount: number;
  price?: number | undefined;
  params: OrderParams;
}

/** What to send: an order ccxt creates (Bybit may send it over its order-entry socket), or a call of its own. */
export type Placement = OrderSpec | ((ex: Exchange) => Promise<Order>);
export type CloseRequest = Omit<ReduceRequest, 'quantity'> & { quantity?: number };
export type UnchangedWhat = keyof (typeof UNCHANGED_CODES)['bybit'];

/** The account terms an order is placed under: ccxt parameters and the position mode they stand for. */
export interface AccountTerms {
  params: OrderParams;
  mode: PositionModeName;
}

/** Lookups of an order the exchange called a duplicate: at once, then after these pauses (2.6 s in all). */
const DUPLICATE_LOOKUP_DELAYS_MS = [0, 100, 300, 700, 1_500];

/** Risk-limit tiers change rarely (exchange announcements): read again after this long. */
const RISK_TIERS_KEPT_MS = 60 * 60_000;

const orderStatuses: Record<string, PlacedOrder['status']> = { open: 'open', closed: 'closed', canceled: 'canceled', expired: 'canceled', rejected: 'rejected' };

/** The side of the trade that opens (entry) or reduces (close) a position on `side`. */
export const openSide = (side: PositionSide) => (side === 'long' ? 'buy' : 'sell');
export const closeSide = (side: PositionSide) => (side === 'long' ? 'sell' : 'buy');

export function placedOrderOf(order: Order, clientOrderId: string): PlacedOrder {
  const fee = order.fee?.cost;
  return {
    clientOrderId: order.clientOrderId || clientOrderId,
    exchangeOrderId: order.id || undefined,
    status: orderStatuses[order.status ?? ''] ?? 'unknown',
    filledQty: order.filled ?? 0,
    avgPrice: order.average || undefined,
    fee: fee === undefined ? undefined : Math.abs(fee),
  };
}

/**
 * What both ccxt adapters share: markets, errors, balances, positions, entries and closes. Each
 * exchange supplies its order parameters and its own lookups (EXCHANGES 2 and 3).
 */
export abstract class CcxtAdapter implements ExchangeAdapter {
  abstract readonly exchange: ExchangeId;
  abstract readonly sizedEntryProtection: boolean;
  private marketCache: { source: Record<string, Market>; infos: Map<string, MarketInfo> } | undefined;
  private readonly tiers = new Map<string, { tiers: Promise<RiskTier[]>; readAt: number; read: boolean }>();

  /** The private streams of the warm accounts, whose views answer reads while synced (absent: every read is REST). */
  protected streams: AccountStreams | undefined;

  constructor(protected readonly client: CcxtClient) {}

  /** Keeps a private stream per warm account (opened with the trade sessions) and answers reads from it. */
  useStreams(streams: AccountStreams): void {
    this.streams = streams;
  }

  async fetchOrderByClientId(credentials: Credentials, symbol: string, clientOrderId: string, kind?: OrderKind): Promise<PlacedOrder | null> {
    return this.streams?.view(credentials)?.order(clientOrderId) ?? this.readOrderByClientId(credentials, symbol, clientOrderId, kind);
  }

  async fetchOrderById(credentials: Credentials, symbol: string, exchangeOrderId: string): Promise<PlacedOrder | null> {
    return this.streams?.view(credentials)?.orderById(exchangeOrderId) ?? this.readOrderById(credentials, symbol, exchangeOrderId);
  }

  /** The private streams: wanted, open, and synced (caught up, answering reads). */
  streamStats(): { wanted: number; open: number; synced: number } {
    const stats = this.streams?.stats();
    return { wanted: stats?.wanted ?? 0, open: stats?.open ?? 0, synced: stats?.synced ?? 0 };
  }

  /** Order-entry sessions kept (Bybit's /v5/trade sockets; none elsewhere). */
  protected tradeSessionStats(): { wanted: number; open: number } {
    return { wanted: 0, open: 0 };
  }

  health(): AdapterHealth {
    const prefix = `${this.exchange}:`;
    const addresses = Object.entries(this.client.options.limiter.stats().perIp)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, window]) => ({ egress: key.slice(prefix.length), limit: window.limit, windowMs: window.windowMs, inWindow: window.inWindow, waiting: window.waiting }));
    return { tradeSessions: this.tradeSessionStats(), privateStreams: this.streamStats(), addresses };
  }

  onAccountNews(listener: (credentials: Credentials, news: AccountNews) => void): void {
    this.streams?.onNews((credentials, streamNews) => {
      const news = newsOf(streamNews);
      if (news) listener(credentials, news);
    });
  }

  /** Resolves once the stream shows the order done (filled, cancelled, rejected); undefined when it cannot tell within `timeoutMs`. */
  async settledOrder(credentials: Credentials, clientOrderId: string, timeoutMs: number): Promise<PlacedOrder | undefined> {
    const done = (order: PlacedOrder) => order.status === 'closed' || order.status === 'canceled' || order.status === 'rejected';
    const order = await this.streams?.view(credentials)?.waitForOrder(clientOrderId, done, timeoutMs);
    return order && done(order) ? order : undefined;
  }

  /** Parameters that put an order on the right position in hedge mode (ccxt cannot detect the mode). */
  protected modeParams(mode: PositionModeName): OrderParams {
    return mode === 'hedge' ? { hedged: true } : {};
  }

  /**
   * The terms of an order that opens or reduces a position on `market` (Bitget adds the symbol's own
   * margin mode and may trade a one-way strategy on a hedge account). `known` is what the caller read
   * already (e.g. the position row of a close).
   */
  protected abstract accountTerms(credentials: Credentials, market: MarketInfo, requested: PositionModeName, known?: Position): Promise<AccountTerms>;

  /** Places with the account's terms; Bitget reads the terms again and retries once when the exchange says they changed. */
  protected async withAccountTerms<T>(credentials: Credentials, market: MarketInfo, requested: PositionModeName, place: (terms: AccountTerms) => Promise<T>, known?: Position): Promise<T> {
    return place(await this.accountTerms(credentials, market, requested, known));
  }

  abstract setPositionMode(credentials: Credentials, symbol: string, mode: PositionModeName): Promise<void>;
  abstract placeTakeProfit(credentials: Credentials, request: TakeProfitRequest): Promise<PlacedOrder>;
  abstract placeTrailingStop(credentials: Credentials, request: TrailingStopRequest): Promise<PlacedOrder>;
  abstract placeStopLoss(credentials: Credentials, request: StopLossRequest): Promise<PlacedOrder>;
  /** The position's TP/SL made from entries' attached levels, over REST (see `findAttachedLegs`). */
  protected abstract readAttachedLegs(credentials: Credentials, position: { symbol: string; side: PositionSide; positionMode: PositionModeName }, includeDone?: boolean): Promise<AttachedLeg[]>;

  /** The open ones are known from the account's stream while it is synced; done ones are always read over REST. */
  async findAttachedLegs(credentials: Credentials, position: { symbol: string; side: PositionSide; positionMode: PositionModeName }, includeDone = false, overRest = false): Promise<AttachedLeg[]> {
    const fromStream = includeDone || overRest ? undefined : this.streams?.view(credentials)?.attachedLegs(position.symbol, position.side, position.positionMode === 'hedge');
    return fromStream ?? this.readAttachedLegs(credentials, position, includeDone);
  }

  /** Whether the account's reads are answered by its private stream now (synced): then they cost no request. */
  readsFromStream(credentials: Credentials): boolean {
    return this.streams?.view(credentials)?.isSynced ?? false;
  }
  abstract cancelAttachedLeg(credentials: Credentials, symbol: string, leg: Pick<AttachedLeg, 'exchangeOrderId' | 'planType'>): Promise<void>;
  /** Looks an order up over REST by the exchange's id; null when the exchange has none. */
  protected abstract readOrderById(credentials: Credentials, symbol: string, exchangeOrderId: string): Promise<PlacedOrder | null>;
  abstract setStopLoss(credentials: Credentials, request: { symbol: string; side: PositionSide; price: number; positionMode: PositionModeName }): Promise<void>;
  abstract cancelOrder(credentials: Credentials, symbol: string, clientOrderId: string, kind?: OrderKind): Promise<void>;
  /** Looks an order up over REST by our client id (at most two reads); null when the exchange has none. */
  protected abstract readOrderByClientId(credentials: Credentials, symbol: string, clientOrderId: string, kind?: OrderKind): Promise<PlacedOrder | null>;
  abstract checkKey(credentials: Credentials): Promise<KeyCheck>;
  abstract fetchLiveOrders(credentials: Credentials): Promise<LiveOrder[]>;
  abstract findLiquidation(credentials: Credentials, symbol: string, side: PositionSide, since: number): Promise<Liquidation | null>;
  abstract costRecords(credentials: Credentials, symbol: string, since: number, until: number): Promise<CostRecord[]>;

  /** Opens each account's private stream, and its order-entry session where the exchange has one (Bybit /v5/trade). */
  async warmSessions(accounts: readonly Credentials[]): Promise<SessionWarmth> {
    const [trade] = await Promise.all([this.warmTradeSessions(accounts), this.streams?.warm(accounts)]);
    return trade;
  }

  closeSessions(accounts?: readonly Credentials[]): void {
    this.streams?.close(accounts);
    this.closeTradeSessions(accounts);
  }

  /** Order-entry sessions ahead of alerts (Bybit /v5/trade); Bitget trades over REST only. */
  protected async warmTradeSessions(_accounts: readonly Credentials[]): Promise<SessionWarmth> {
    return { wanted: 0, open: 0, waiting: 0, opened: 0, failures: 0 };
  }

  protected closeTradeSessions(_accounts?: readonly Credentials[]): void {}

  entryChannel(_credentials: Credentials): EntryChannel {
    return 'rest';
  }

  expectRequests(count: number): void {
    this.client.options.limiter.prepare(this.exchange, this.client.options.egress, count);
  }

  async warmAccountTerms(_credentials: Credentials, _symbols: readonly string[]): Promise<boolean> {
    return false;
  }

  async loadMarkets(refresh = false): Promise<Map<string, MarketInfo>> {
    const markets = await this.guard(() => this.client.markets(refresh));
    if (this.marketCache?.source !== markets) this.marketCache = { source: markets, infos: linearUsdtMarkets(markets) };
    return this.marketCache.infos;
  }

  async market(symbol: string): Promise<MarketInfo> {
    const info = (await this.loadMarkets()).get(symbol.toUpperCase());
    if (!info) throw failure(this.exchange, 'invalid_request', `does not list the USDT perpetual '${symbol}'`, 'check the strategy symbol (e.g. BTCUSDT)');
    return info;
  }

  /** A read still under way is raced against the entry's `deadline` (see ExchangeAdapter.riskTiers). */
  riskTiers(symbol: string, deadline?: number): Promise<RiskTier[]> {
    const { tiers, read } = this.sharedTiers(symbol);
    if (deadline === undefined || read) return tiers;
    const { limiter, egress } = this.client.options;
    return byDeadline(tiers, limiter.bans, this.exchange, egress, deadline, 'risk-limit tiers could not be read');
  }

  /** One read per symbol an hour, shared by every entry that asks meanwhile; a failed read is not kept. */
  private sharedTiers(symbol: string): { tiers: Promise<RiskTier[]>; read: boolean } {
    const cached = this.tiers.get(symbol);
    if (cached && Date.now() - cached.readAt < RISK_TIERS_KEPT_MS) return cached;
    const entry = { tiers: this.guard(() => this.readRiskTiers(symbol)).then((rows) => rows.sort((a, b) => a.maxValue - b.maxValue)), readAt: Date.now(), read: false };
    this.tiers.set(symbol, entry);
    entry.tiers.then(
      () => (entry.read = true),
      () => this.tiers.delete(symbol),
    );
    return entry;
  }

  /** The symbol's risk-limit tiers from the exchange's public endpoint. */
  protected abstract readRiskTiers(symbol: string): Promise<RiskTier[]>;

  async fetchBalance(credentials: Credentials): Promise<Balance> {
    const balance = await this.call(credentials, (ex) => ex.fetchBalance());
    const usdt = (balance as unknown as Record<string, { free?: number; used?: number; total?: number } | undefined>).USDT;
    return { total: usdt?.total ?? 0, free: usdt?.free ?? 0, used: usdt?.used ?? 0 };
  }

  async setLeverage(credentials: Credentials, symbol: string, leverage: number): Promise<void> {
    const market = await this.leverageMarket(symbol, leverage);
    await this.tolerate('leverage', () => this.call(credentials, (ex) => ex.setLeverage(leverage, market.ccxtSymbol)));
  }

  /** The market, once `leverage` is one it allows. */
  protected async leverageMarket(symbol: string, leverage: number): Promise<MarketInfo> {
    const market = await this.market(symbol);
    if (!Number.isFinite(leverage) || leverage < 1 || leverage > market.maxLeverage) {
      throw failure(this.exchange, 'invalid_request', `allows leverage 1-${market.maxLeverage} on ${market.symbol}, not ${leverage}`, 'change the strategy leverage');
    }
    return market;
  }

  /** The entry's attached TP/SL parameters (ccxt `stopLoss` / `takeProfit`); exchanges add their own mode. */
  protected attachedProtectionParams(request: EntryRequest): OrderParams {
    return request.stopLossPrice === undefined ? {} : { stopLoss: { triggerPrice: request.stopLossPrice } };
  }

  async placeEntry(credentials: Credentials, request: EntryRequest): Promise<PlacedOrder> {
    const market = await this.market(request.symbol);
    return this.withAccountTerms(credentials, market, request.positionMode, (terms) => {
      const params: OrderParams = { clientOrderId: request.clientOrderId, ...terms.params, ...this.attachedProtectionParams(request) };
      return this.placeOnly(credentials, market, request.clientOrderId, { type: 'market', side: openSide(request.side), amount: request.quantity, params }, request.deadlineAt);
    });
  }

  async closePosition(credentials: Credentials, request: CloseRequest): Promise<PlacedOrder | null> {
    const market = await this.market(request.symbol);
    let positions = await this.fetchPositions(credentials, [market.symbol]);
    // The stream may not have delivered the fill that opened it yet: absence is confirmed over REST.
    if (!positions.some((p) => p.side === request.side) && this.readsFromStream(credentials)) positions = await this.readPositions(credentials, [market.symbol]);
    const mode = positions[0] ? (await this.accountTerms(credentials, market, request.positionMode, positions[0])).mode : request.positionMode;
    const position = positions.find((p) => p.side === request.side && (mode === 'hedge') === p.hedged);
    if (!position) {
      // Retried after a crash: the close may already have happened under this id.
      return this.fetchOrderByClientId(credentials, market.symbol, request.clientOrderId, 'order');
    }
    const quantity = Math.min(request.quantity ?? position.size, position.size);
    try {
      return await this.placeReduceOnly(credentials, market, { ...request, quantity }, position);
    } catch (error) {
      if (error instanceof ExchangeFailure && error.code === 'no_position') return null;
      throw error;
    }
  }

  async fetchPositions(credentials: Credentials, symbols?: string[]): Promise<Position[]> {
    return this.streams?.view(credentials)?.openPositions(symbols) ?? this.readPositions(credentials, symbols);
  }

  /** The open positions over REST (the private stream's catch-up reads them too). */
  async readPositions(credentials: Credentials, symbols?: string[]): Promise<Position[]> {
    const markets = symbols ? await Promise.all(symbols.map((s) => this.market(s))) : undefined;
    const rows = await this.call(credentials, (ex) => ex.fetchPositions(markets?.map((m) => m.ccxtSymbol)));
    const wanted = markets ? new Set(markets.map((m) => m.ccxtSymbol)) : undefined;
    return rows.filter((row) => (row.contracts ?? 0) > 0 && (row.side === 'long' || row.side === 'short') && (!wanted || wanted.has(row.symbol ?? ''))).map((row) => this.positionOf(row));
  }

  /** A reduce-only market order for `quantity` of the position on `request.side` (`position`: that position's row). */
  protected placeReduceOnly(credentials: Credentials, market: MarketInfo, request: ReduceRequest, position?: Position): Promise<PlacedOrder> {
    return this.withAccountTerms(
      credentials,
      market,
      request.positionMode,
      (terms) => {
        const params: OrderParams = { clientOrderId: request.clientOrderId, reduceOnly: true, ...terms.params };
        return this.placeAndFetch(credentials, market, request.clientOrderId, { type: 'market', side: closeSide(request.side), amount: request.quantity, params });
      },
      position,
    );
  }

  /**
   * Places an order with one request. Both exchanges answer only the ids, so the result says
   * status 'unknown' and no fill: read the fill later with `fetchOrderByClientId`. A duplicate client
   * id means an earlier attempt got through: that order (looked up) is the answer, so retries are
   * idempotent.
   */
  protected async placeOnly(credentials: Credentials, market: MarketInfo, clientOrderId: string, place: Placement, deadline?: number): Promise<PlacedOrder> {
    try {
      const placed = typeof place === 'function' ? placedOrderOf(await this.call(credentials, place, deadline), clientOrderId) : await this.sendCreate(credentials, market, clientOrderId, place, deadline);
      this.streams?.view(credentials)?.placed(market.symbol, placed, Date.now());
      return placed;
    } catch (error) {
      if (!(error instanceof ExchangeFailure) || error.code !== 'duplicate') throw error;
      return this.earlierOrder(credentials, market.symbol, clientOrderId);
    }
  }

  /**
   * The order an earlier attempt placed under this client id, which the exchange just called a duplicate.
   * Bybit acknowledges orders asynchronously (`docs/v5/order/create-order.mdx`), so a lookup right away
   * may not list it yet (LIVE-FIDELITY D6): it is looked up again with backoff. Still not listed, the
   * failure is retryable: the next attempt looks it up first, and never places it again.
   */
  private async earlierOrder(credentials: Credentials, symbol: string, clientOrderId: string): Promise<PlacedOrder> {
    for (const delay of DUPLICATE_LOOKUP_DELAYS_MS) {
      if (delay > 0) await sleep(delay);
      const existing = await this.fetchOrderByClientId(credentials, symbol, clientOrderId);
      if (existing) return existing;
    }
    throw failure(this.exchange, 'duplicate', 'says an order with this client order id exists but does not list it yet', 'it is looked up again before anything else is sent', true);
  }

  /** Sends one create-order request (REST here; Bybit uses the account's order-entry session when it is open). */
  protected async sendCreate(credentials: Credentials, market: MarketInfo, clientOrderId: string, order: OrderSpec, deadline?: number): Promise<PlacedOrder> {
    const created = await this.call(credentials, (ex) => ex.createOrder(market.ccxtSymbol, order.type, order.side, order.amount, order.price, order.params), deadline);
    return placedOrderOf(created, clientOrderId);
  }

  /** A conditional order (TP, trailing) with one request: once acknowledged it waits for its trigger, open. */
  protected async placeConditional(credentials: Credentials, market: MarketInfo, clientOrderId: string, place: Placement): Promise<PlacedOrder> {
    const placed = await this.placeOnly(credentials, market, clientOrderId, place);
    return placed.status === 'unknown' ? { ...placed, status: 'open' } : placed;
  }

  /** Places an order and reads it back, for the closes whose fill price is needed at once. */
  protected async placeAndFetch(credentials: Credentials, market: MarketInfo, clientOrderId: string, place: Placement): Promise<PlacedOrder> {
    const created = await this.placeOnly(credentials, market, clientOrderId, place);
    if (created.status !== 'unknown' && (created.filledQty === 0 || created.avgPrice !== undefined)) return created;
    const fetched = await this.fetchOrderByClientId(credentials, market.symbol, clientOrderId).catch((error: unknown) => {
      // The order is placed; a failing read-back must not look like a failed placement.
      if (error instanceof ExchangeFailure && error.retryable) return null;
      throw error;
    });
    return fetched ?? created;
  }

  protected positionOf(row: CcxtPosition): Position {
    const market = row.symbol ? this.marketCache?.source[row.symbol] : undefined;
    return {
      symbol: market?.id ?? row.symbol ?? '',
      side: row.side as PositionSide,
      size: (row.contracts ?? 0) * (row.contractSize ?? 1),
      entryPrice: row.entryPrice ?? 0,
      markPrice: row.markPrice ?? undefined,
      unrealizedPnl: row.unrealizedPnl ?? undefined,
      leverage: row.leverage ?? undefined,
      hedged: row.hedged === true,
      stopLossPrice: row.stopLossPrice || undefined,
      marginMode: row.marginMode === 'isolated' || row.marginMode === 'cross' ? row.marginMode : undefined,
    };
  }

  /** Runs ccxt work with the customer's key (and deadline, see EntryRequest); every error becomes an ExchangeFailure. */
  protected call<T>(credentials: Credentials, work: (ex: Exchange) => Promise<T>, deadline?: number): Promise<T> {
    if (!credentials.apiKey || !credentials.secret || (this.exchange === 'bitget' && !credentials.passphrase)) {
      return Promise.reject(failure(this.exchange, 'auth', 'has no complete API key stored for this customer', 'ask the customer to connect their exchange'));
    }
    return this.guard(() => this.client.withCredentials(credentials, work, deadline));
  }

  protected async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toExchangeFailure(this.exchange, error);
    }
  }

  /** "Not modified" answers (UNCHANGED_CODES) mean the setting or stop is already what we want. */
  protected async tolerate(what: UnchangedWhat, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (error instanceof ExchangeFailure && error.exchangeCode !== undefined && UNCHANGED_CODES[this.exchange][what].includes(error.exchangeCode)) return;
      throw error;
    }
  }
}

/** The takeover fills summed: their quantity and average price; null when there are none. */
export function liquidationOf(fills: ReadonlyArray<{ quantity: number; price: number }>): Liquidation | null {
  const quantity = fills.reduce((sum, fill) => sum + fill.quantity, 0);
  if (!(quantity > 0)) return null;
  const price = fills.reduce((sum, fill) => sum + fill.quantity * fill.price, 0) / quantity;
  return { quantity: Number(quantity.toFixed(8)), price: Number(price.toFixed(8)) };
}
