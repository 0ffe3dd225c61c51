import type { bybit as BybitExchange, Exchange, Order } from 'ccxt';
import type { BybitSocketEntry } from './bybit-ws/order-entry';
import type { BybitTradeSessions } from './bybit-ws/sessions';
import { servedBySocket, socketOrderBody, socketRefusal } from './bybit-ws/ccxt-frames';
import { CcxtAdapter, closeSide, liquidationOf, placedOrderOf, type AccountTerms, type OrderParams, type OrderSpec } from './ccxt-adapter';
import type { CcxtClient } from './ccxt-client';
import { orderKindOf } from './client-order-id';
import { bybitCostRecords } from './cost-records';
import { failure } from './errors';
import { refusedKey } from './key-check';
import { roundToTick } from './markets';
import type {
  AttachedLeg,
  CostRecord,
  Credentials,
  EntryChannel,
  EntryRequest,
  ExchangeFailure,
  KeyCheck,
  LiveOrder,
  MarginModeName,
  MarketInfo,
  OrderEntryWindow,
  OrderKind,
  PlacedOrder,
  PositionModeName,
  PositionSide,
  Liquidation,
  RiskTier,
  SessionWarmth,
  StopLossRequest,
  TakeProfitRequest,
  TrailingStopRequest,
} from './types';

interface QueryApiResult {
  readOnly?: number | string;
  ips?: string[];
  permissions?: Record<string, string[] | undefined>;
}

const bybitOf = (ex: Exchange) => ex as BybitExchange;

/** Bybit's WebSocket order entry of an adapter: the accounts' sessions and the orders sent over them. */
export interface BybitOrderEntry {
  sessions: BybitTradeSessions;
  entry: BybitSocketEntry;
}

/** Bybit's position index: 0 one-way, 1 hedge long, 2 hedge short. */
const positionIdx = (mode: PositionModeName, side: PositionSide) => (mode === 'oneway' ? 0 : side === 'long' ? 1 : 2);

/**
 * Bybit V5, unified trading account, linear USDT perpetuals (EXCHANGES section 2). The UTA margin
 * mode is account-wide and orders do not carry it: the adapter never calls set-margin-mode, so the
 * customer's choice stands.
 */
export class BybitAdapter extends CcxtAdapter {
  readonly exchange = 'bybit' as const;
  /** tpslMode Partial: the attached TP/SL are sized to what the entry fills (create-order.mdx). */
  readonly sizedEntryProtection = true;

  readonly orderEntryWindow: OrderEntryWindow | undefined;

  /** `orderEntry`: creates go over the account's /v5/trade session when it is open (BYBIT_ORDER_ENTRY=websocket), else REST. */
  constructor(
    client: CcxtClient,
    private readonly orderEntry?: BybitOrderEntry,
  ) {
    super(client);
    this.orderEntryWindow = orderEntry?.entry.window;
  }

  protected override async warmTradeSessions(accounts: readonly Credentials[]): Promise<SessionWarmth> {
    if (!this.orderEntry) return super.warmTradeSessions(accounts);
    return this.orderEntry.sessions.warm(accounts.filter((a) => a.apiKey && a.secret));
  }

  protected override tradeSessionStats(): { wanted: number; open: number } {
    const stats = this.orderEntry?.sessions.stats();
    return { wanted: stats?.wanted ?? 0, open: stats?.open ?? 0 };
  }

  protected override closeTradeSessions(accounts?: readonly Credentials[]): void {
    this.orderEntry?.sessions.close(accounts);
  }

  override entryChannel(credentials: Credentials): EntryChannel {
    return this.orderEntry?.entry.open() && this.orderEntry.sessions.ready(credentials) ? 'websocket' : 'rest';
  }

  /**
   * Over the account's open /v5/trade session: the same body ccxt would POST to /v5/order/create
   * (`createOrderRequest`, as ccxt pro's createOrderWs builds it), refusals classed by ccxt's own
   * handleErrors like a REST answer. REST when the session is down or the socket path says so.
   */
  protected override async sendCreate(credentials: Credentials, market: MarketInfo, clientOrderId: string, order: OrderSpec, deadline?: number): Promise<PlacedOrder> {
    const socketEntry = this.orderEntry?.entry;
    if (socketEntry && servedBySocket(order) && this.orderEntry?.sessions.ready(credentials)) {
      await this.client.markets();
      const ex = bybitOf(this.client.ccxt);
      // ccxt's own checks (precision, amounts) fail here as they would before a REST request.
      const body = await this.guard(async () => socketOrderBody(ex, market, order));
      const outcome = await socketEntry.create({
        credentials,
        clientOrderId,
        body,
        deadline,
        lookup: () => this.fetchOrderByClientId(credentials, market.symbol, clientOrderId),
        refusal: (frame) => socketRefusal(ex, frame),
      });
      if (outcome.kind === 'placed') return outcome.order;
    }
    return super.sendCreate(credentials, market, clientOrderId, order, deadline);
  }

  protected override attachedProtectionParams(request: EntryRequest): OrderParams {
    const params = super.attachedProtectionParams(request);
    if (request.stopLossPrice !== undefined) params.slOrderType = 'Market';
    if (request.takeProfitPrice !== undefined) Object.assign(params, { takeProfit: { triggerPrice: request.takeProfitPrice }, tpOrderType: 'Market' });
    return Object.keys(params).length > 0 ? { ...params, tpslMode: 'Partial' } : params;
  }

  protected async accountTerms(_credentials: Credentials, _market: MarketInfo, requested: PositionModeName): Promise<AccountTerms> {
    return { params: this.modeParams(requested), mode: requested };
  }

  async setPositionMode(credentials: Credentials, symbol: string, mode: PositionModeName): Promise<void> {
    const market = await this.market(symbol);
    await this.tolerate('positionMode', () => this.call(credentials, (ex) => ex.setPositionMode(mode === 'hedge', market.ccxtSymbol)));
  }

  /**
   * A conditional reduce-only market order: it keeps our client id, unlike a position TP. Like the stop it
   * carries `closeOnTrigger`: without it Bybit cancels a triggered order when the margin is short
   * (`docs/v5/order/create-order.mdx`, LIVE-FIDELITY D4).
   */
  async placeTakeProfit(credentials: Credentials, request: TakeProfitRequest): Promise<PlacedOrder> {
    const market = await this.market(request.symbol);
    const params: OrderParams = { clientOrderId: request.clientOrderId, takeProfitPrice: request.triggerPrice, reduceOnly: true, closeOnTrigger: true, ...this.modeParams(request.positionMode) };
    return this.placeConditional(credentials, market, request.clientOrderId, { type: 'market', side: closeSide(request.side), amount: request.quantity, params });
  }

  /** A conditional reduce-only market order falling (long) / rising (short) to the trigger, with our client id. */
  async placeStopLoss(credentials: Credentials, request: StopLossRequest): Promise<PlacedOrder> {
    const market = await this.market(request.symbol);
    const params: OrderParams = { clientOrderId: request.clientOrderId, stopLossPrice: request.triggerPrice, reduceOnly: true, closeOnTrigger: true, ...this.modeParams(request.positionMode) };
    return this.placeConditional(credentials, market, request.clientOrderId, { type: 'market', side: closeSide(request.side), amount: request.quantity, params });
  }

  /** GET /v5/order/realtime (and /history) ?orderFilter=tpslOrder: the position's TP/SL orders without an orderLinkId. */
  protected async readAttachedLegs(credentials: Credentials, position: { symbol: string; side: PositionSide; positionMode: PositionModeName }, includeDone = false): Promise<AttachedLeg[]> {
    const market = await this.market(position.symbol);
    const orders = await this.call(credentials, async (ex) => [
      ...(await ex.fetchOpenOrders(market.ccxtSymbol, undefined, undefined, { orderFilter: 'tpslOrder' })),
      ...(includeDone ? await ex.fetchCanceledAndClosedOrders(market.ccxtSymbol, undefined, undefined, { orderFilter: 'tpslOrder' }) : []),
    ]);
    const idx = positionIdx(position.positionMode, position.side);
    return orders.flatMap((order): AttachedLeg[] => {
      const info = order.info as Record<string, unknown>;
      const type = String(info.stopOrderType ?? '');
      if (order.clientOrderId || !order.id || Number(info.positionIdx ?? 0) !== idx || order.side !== closeSide(position.side)) return [];
      if (!/^(Partial)?(StopLoss|TakeProfit)$/.test(type)) return [];
      return [{ exchangeOrderId: order.id, kind: type.endsWith('StopLoss') ? 'stopLoss' : 'takeProfit', triggerPrice: order.triggerPrice ?? 0, quantity: order.amount ?? 0, sized: type.startsWith('Partial'), planType: undefined }];
    });
  }

  /** docs/v5/market/risk-limit.mdx: `riskLimitValue`, `maxLeverage` and `maintenanceMargin` per tier. */
  protected async readRiskTiers(symbol: string): Promise<RiskTier[]> {
    const answer = (await bybitOf(this.client.ccxt).publicGetV5MarketRiskLimit({ category: 'linear', symbol })) as { result?: { list?: Array<Record<string, string>> } };
    return (answer.result?.list ?? []).filter((row) => row.symbol === symbol).map((row) => ({ maxValue: Number(row.riskLimitValue), maxLeverage: Number(row.maxLeverage), maintenanceRate: Number(row.maintenanceMargin) }));
  }

  /** docs/v5/order/execution.mdx: the takeover's executions are `execType: BustTrade`; a long is taken over by a Sell. */
  async findLiquidation(credentials: Credentials, symbol: string, side: PositionSide, since: number): Promise<Liquidation | null> {
    const answer = (await this.call(credentials, (ex) =>
      bybitOf(ex).privateGetV5ExecutionList({ category: 'linear', symbol, execType: 'BustTrade', startTime: since, limit: 100 }),
    )) as { result?: { list?: Array<Record<string, string>> } };
    const closing = side === 'long' ? 'Sell' : 'Buy';
    const rows = (answer.result?.list ?? []).filter((row) => row.side === closing && Number(row.execTime) >= since);
    return liquidationOf(rows.map((row) => ({ quantity: Number(row.execQty), price: Number(row.execPrice) })));
  }

  async costRecords(credentials: Credentials, symbol: string, since: number, until: number): Promise<CostRecord[]> {
    const background: Credentials = { ...credentials, background: true };
    return bybitCostRecords((work) => this.call(background, work), symbol, since, until);
  }

  async fetchLiveOrders(credentials: Credentials): Promise<LiveOrder[]> {
    const live: LiveOrder[] = [];
    let cursor = '';
    do {
      const page = (await this.call(credentials, (ex) =>
        bybitOf(ex).privateGetV5OrderRealtime({ category: 'linear', settleCoin: 'USDT', orderFilter: 'StopOrder', limit: 50, ...(cursor ? { cursor } : {}) }),
      )) as { result?: { list?: Array<Record<string, string>>; nextPageCursor?: string } };
      for (const row of page.result?.list ?? []) live.push({ symbol: row.symbol ?? '', clientOrderId: row.orderLinkId ?? '', exchangeOrderId: row.orderId ?? '', createdAt: Number(row.createdTime ?? 0) });
      cursor = page.result?.nextPageCursor ?? '';
    } while (cursor);
    return live;
  }

  async cancelAttachedLeg(credentials: Credentials, symbol: string, leg: Pick<AttachedLeg, 'exchangeOrderId'>): Promise<void> {
    const market = await this.market(symbol);
    await this.cancelOver(credentials, market, { orderId: leg.exchangeOrderId }, (ex) => ex.cancelOrder(leg.exchangeOrderId, market.ccxtSymbol));
  }

  /**
   * A cancel (already gone is fine) over the account's /v5/trade session when it is open: it then takes the
   * address's order-entry window, not the HTTP one that reads share, so cancelling replaced legs after a
   * fan-out does not queue behind thousands of reads. REST otherwise, or when the socket path says so.
   */
  private async cancelOver(credentials: Credentials, market: MarketInfo, id: { orderId: string } | { orderLinkId: string }, overRest: (ex: Exchange) => Promise<unknown>): Promise<void> {
    try {
      const socketEntry = this.orderEntry?.entry;
      if (socketEntry && this.orderEntry?.sessions.ready(credentials)) {
        const ex = bybitOf(this.client.ccxt);
        const outcome = await socketEntry.cancel({ credentials, body: { category: 'linear', symbol: market.symbol, ...id }, refusal: (frame) => socketRefusal(ex, frame) });
        if (outcome.kind === 'cancelled') return;
      }
      await this.call(credentials, overRest);
    } catch (error) {
      if ((error as ExchangeFailure).code === 'not_found') return;
      throw error;
    }
  }

  protected async readOrderById(credentials: Credentials, symbol: string, exchangeOrderId: string): Promise<PlacedOrder | null> {
    const market = await this.market(symbol);
    const order = await this.call(credentials, async (ex): Promise<Order | undefined> => {
      try {
        return await ex.fetchOrder(exchangeOrderId, market.ccxtSymbol, { acknowledged: true });
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
      }
      const history = await ex.fetchCanceledAndClosedOrders(market.ccxtSymbol, undefined, undefined, { orderId: exchangeOrderId });
      return history.find((o) => o.id === exchangeOrderId);
    });
    return order ? placedOrderOf(order, order.clientOrderId ?? '') : null;
  }

  /**
   * Bybit's trailing stop belongs to the position (POST /v5/position/trading-stop): it closes the
   * whole position, takes a price distance, and has no client id, so the answer carries none.
   */
  async placeTrailingStop(credentials: Credentials, request: TrailingStopRequest): Promise<PlacedOrder> {
    const market = await this.market(request.symbol);
    const distance = roundToTick(
      request.callback.type === 'price' ? request.callback.value : (request.activationPrice * request.callback.value) / 100,
      market.tickSize,
    );
    if (!(distance > 0)) throw failure('bybit', 'invalid_request', `cannot trail by ${request.callback.value}${request.callback.type === 'percent' ? '%' : ' USDT'}`, 'use a larger trailing callback');
    // 34040 "Not modified": a retry of a trailing stop that is already in place.
    await this.tolerateTradingStop(credentials, (ex) =>
      bybitOf(ex).privatePostV5PositionTradingStop({
        category: 'linear',
        symbol: market.symbol,
        trailingStop: ex.priceToPrecision(market.ccxtSymbol, distance),
        activePrice: ex.priceToPrecision(market.ccxtSymbol, request.activationPrice),
        positionIdx: positionIdx(request.positionMode, request.side),
        tpslMode: 'Full',
      }),
    );
    return { clientOrderId: request.clientOrderId, exchangeOrderId: undefined, status: 'open', filledQty: 0, avgPrice: undefined, fee: undefined };
  }

  async setStopLoss(credentials: Credentials, request: { symbol: string; side: PositionSide; price: number; positionMode: PositionModeName }): Promise<void> {
    const market = await this.market(request.symbol);
    await this.tolerateTradingStop(credentials, (ex) =>
      bybitOf(ex).privatePostV5PositionTradingStop({
        category: 'linear',
        symbol: market.symbol,
        stopLoss: ex.priceToPrecision(market.ccxtSymbol, request.price),
        tpslMode: 'Full',
        positionIdx: positionIdx(request.positionMode, request.side),
      }),
    );
  }

  /** `/v5/position/trading-stop` answers 34040 "Not modified" when the values are already set (LIVE-FIDELITY B1). */
  private tolerateTradingStop(credentials: Credentials, work: (ex: Exchange) => Promise<unknown>): Promise<void> {
    return this.tolerate('tradingStop', () => this.call(credentials, work));
  }

  /**
   * Cancelling an order that is no longer open is not an error: it is not open, as wanted. A trailing
   * stop belongs to the position here and has no order to cancel: it goes with the position.
   */
  async cancelOrder(credentials: Credentials, symbol: string, clientOrderId: string, kind: OrderKind = orderKindOf(clientOrderId)): Promise<void> {
    const market = await this.market(symbol);
    if (kind === 'trailing') return;
    await this.cancelOver(credentials, market, { orderLinkId: clientOrderId }, (ex) => ex.cancelOrder(undefined as unknown as string, market.ccxtSymbol, { orderLinkId: clientOrderId }));
  }

  /**
   * At most two reads: GET /v5/order/realtime knows open orders (conditional ones too) and the last 500
   * closed ones; older ones are in /v5/order/history. ccxt throws a TypeError (not OrderNotFound) when
   * realtime has no match. A trailing stop is the position's (no order): nothing to read.
   */
  protected async readOrderByClientId(credentials: Credentials, symbol: string, clientOrderId: string, kind: OrderKind = orderKindOf(clientOrderId)): Promise<PlacedOrder | null> {
    const market = await this.market(symbol);
    if (kind === 'trailing') return null;
    const order = await this.call(credentials, async (ex): Promise<Order | undefined> => {
      try {
        return await ex.fetchOrder(undefined as unknown as string, market.ccxtSymbol, { orderLinkId: clientOrderId, acknowledged: true });
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
      }
      const history = await ex.fetchCanceledAndClosedOrders(market.ccxtSymbol, undefined, undefined, { orderLinkId: clientOrderId });
      return history.find((o) => o.clientOrderId === clientOrderId);
    });
    return order ? placedOrderOf(order, clientOrderId) : null;
  }

  /** GET /v5/user/query-api: readOnly, permissions and bound IPs; the position mode from the position list. */
  async checkKey(credentials: Credentials): Promise<KeyCheck> {
    let info: QueryApiResult;
    try {
      const response = (await this.call(credentials, (ex) => bybitOf(ex).privateGetV5UserQueryApi())) as { result?: QueryApiResult };
      info = response.result ?? {};
    } catch (error) {
      return refusedKey(error);
    }
    const permissions = info.permissions ?? {};
    const has = (group: string, name: string) => (permissions[group] ?? []).some((p) => p.toLowerCase() === name.toLowerCase());
    const canTrade = Number(info.readOnly ?? 1) === 0 && (has('ContractTrade', 'Order') || has('Derivatives', 'DerivativesTrade'));
    const canWithdraw = Object.values(permissions).some((list) => (list ?? []).some((p) => /withdraw/i.test(p)));
    const ips = (info.ips ?? []).filter((ip) => ip && ip !== '*');
    const [positionMode, marginMode] = await Promise.all([this.positionMode(credentials), this.marginMode(credentials)]);
    return { valid: true, canTrade, canWithdraw, ipBound: ips.length > 0, positionMode, marginMode, error: undefined };
  }

  /** GET /v5/account/info: the UTA margin mode is account-wide; read and reported, never changed here. */
  private async marginMode(credentials: Credentials): Promise<MarginModeName | undefined> {
    const response = (await this.call(credentials, (ex) => bybitOf(ex).privateGetV5AccountInfo()).catch(() => undefined)) as { result?: { marginMode?: string } } | undefined;
    const mode = response?.result?.marginMode;
    if (mode === 'ISOLATED_MARGIN') return 'isolated';
    if (mode === 'REGULAR_MARGIN' || mode === 'PORTFOLIO_MARGIN') return 'cross';
    return undefined;
  }

  /** Bybit has no account-wide mode query: the position list of a market shows idx 0 (one-way) or 1/2 (hedge). */
  private async positionMode(credentials: Credentials): Promise<PositionModeName | undefined> {
    const markets = await this.loadMarkets();
    const probe = markets.get('BTCUSDT') ?? markets.values().next().value;
    if (!probe) return undefined;
    const rows = await this.call(credentials, (ex) => ex.fetchPositions([probe.ccxtSymbol])).catch(() => []);
    if (rows.length === 0) return undefined;
    return rows.some((row) => row.hedged) ? 'hedge' : 'oneway';
  }
}
