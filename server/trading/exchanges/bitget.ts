import type { Exchange, Order } from 'ccxt';
import { CcxtAdapter, closeSide, liquidationOf, placedOrderOf, type AccountTerms, type OrderParams } from './ccxt-adapter';
import { BitgetAccountSettings, type SymbolSettings } from './bitget-account';
import { checkBitgetKey } from './bitget-key-check';
import { cancelBitgetPlan, findBitgetAttached, findBitgetOrderById } from './bitget-attached';
import { BITGET_PRODUCT, bitgetOf, cancelBitgetOrder, findBitgetOrder, findPositionStop } from './bitget-orders';
import { orderKindOf } from './client-order-id';
import { bitgetCostRecords } from './cost-records';
import { failure } from './errors';
import {
  ExchangeFailure,
  type AttachedLeg,
  type CostRecord,
  type Credentials,
  type KeyCheck,
  type LiveOrder,
  type MarketInfo,
  type OrderKind,
  type PlacedOrder,
  type Position,
  type PositionModeName,
  type PositionSide,
  type Liquidation,
  type RiskTier,
  type StopLossRequest,
  type TakeProfitRequest,
  type TrailingStopRequest,
} from './types';

/** Bitget's holdSide of a position TP/SL: buy/sell in one-way mode, long/short in hedge mode. */
const holdSide = (mode: PositionModeName, side: PositionSide) => (mode === 'hedge' ? side : side === 'long' ? 'buy' : 'sell');

/** The client id the key check cancels to learn whether the key may trade: no order ever has it. */
const KEY_PROBE_CLIENT_ID = 'ct0-0-keyprobe';

/** set-position-mode refused because a position or order is open (Change-Hold-Mode doc: 40920; the sandbox of 5d25d8b: 45117). */
const MODE_LOCKED_CODES = ['40920', '45117'];
/** "Stop loss order already existed": a position has one pos_loss (LIVE-FIDELITY B6). */
const STOP_EXISTS_CODE = '43031';
/** An order refused for a margin mode (45117) or position mode (40774) other than the account's. */
const TERMS_REFUSED_CODES = ['45117', '40774'];

interface SingleAccount {
  marginMode?: string;
  posMode?: string;
}

/**
 * Bitget V2 USDT-M futures, classic account (EXCHANGES section 3; `uta: false`). The account's own
 * settings are read and respected: the position mode (product-wide) is changed only when it differs,
 * and every order carries the symbol's actual margin mode, never a default (LIVE-FIDELITY B3, B4, B10).
 */
export class BitgetAdapter extends CcxtAdapter {
  readonly exchange = 'bitget' as const;
  /** A preset stop on place-order becomes the position's `pos_loss` (whole position, not sized to the entry). */
  readonly sizedEntryProtection = false;
  private readonly accounts = new BitgetAccountSettings((credentials, market) => this.readSettings(credentials, market));

  /**
   * A one-way strategy on a hedge account trades in hedge mode (its position has a slot of its own and
   * never nets against another); a hedge strategy on a one-way account cannot, and fails.
   */
  protected async accountTerms(credentials: Credentials, market: MarketInfo, requested: PositionModeName, known?: Position): Promise<AccountTerms> {
    let settings: SymbolSettings;
    if (known?.marginMode) {
      settings = { positionMode: known.hedged ? 'hedge' : 'oneway', marginMode: known.marginMode };
      this.accounts.remember(credentials, { ...settings, symbol: market.symbol });
    } else {
      settings = await this.accounts.of(credentials, market);
    }
    if (settings.positionMode === 'oneway' && requested === 'hedge') {
      settings = await this.accounts.fresh(credentials, market);
      if (settings.positionMode === 'oneway') throw hedgeRefused();
    }
    return { params: { marginMode: settings.marginMode, ...this.modeParams(settings.positionMode) }, mode: settings.positionMode };
  }

  /** One read per symbol not known yet (the same read an entry would otherwise make first). */
  override async warmAccountTerms(credentials: Credentials, symbols: readonly string[]): Promise<boolean> {
    let read = false;
    for (const symbol of symbols) {
      const market = await this.market(symbol);
      if (this.accounts.knows(credentials, market.symbol)) continue;
      await this.accounts.of(credentials, market);
      read = true;
    }
    return read;
  }

  /** When Bitget refuses an order's margin or position mode, the settings changed behind our back: read them and try once more. */
  protected override async withAccountTerms<T>(credentials: Credentials, market: MarketInfo, requested: PositionModeName, place: (terms: AccountTerms) => Promise<T>, known?: Position): Promise<T> {
    const terms = await this.accountTerms(credentials, market, requested, known);
    try {
      return await place(terms);
    } catch (error) {
      if (!(error instanceof ExchangeFailure) || !TERMS_REFUSED_CODES.includes(error.exchangeCode ?? '')) throw error;
      this.accounts.forget(credentials, market.symbol);
      const again = await this.accountTerms(credentials, market, requested);
      if (again.mode === terms.mode && again.params.marginMode === terms.params.marginMode) throw error;
      return place(again);
    }
  }

  async setPositionMode(credentials: Credentials, symbol: string, mode: PositionModeName): Promise<void> {
    const market = await this.market(symbol);
    const current = await this.accounts.positionMode(credentials, market);
    if (current === mode) return;
    try {
      await this.call(credentials, (ex) => ex.setPositionMode(mode === 'hedge', market.ccxtSymbol));
      this.accounts.remember(credentials, { positionMode: mode });
    } catch (error) {
      if (!(error instanceof ExchangeFailure) || !MODE_LOCKED_CODES.includes(error.exchangeCode ?? '')) throw error;
      if (current === 'hedge') return;
      throw hedgeRefused(error.exchangeCode);
    }
  }

  /** Isolated margin in hedge mode needs `holdSide` (40808, ccxt issue 24700): both sides get the leverage. */
  override async setLeverage(credentials: Credentials, symbol: string, leverage: number): Promise<void> {
    const market = await this.leverageMarket(symbol, leverage);
    const { positionMode, marginMode } = await this.accounts.of(credentials, market);
    const sides: OrderParams[] = marginMode === 'isolated' && positionMode === 'hedge' ? [{ holdSide: 'long' }, { holdSide: 'short' }] : [{}];
    for (const params of sides) {
      await this.tolerate('leverage', () => this.call(credentials, (ex) => ex.setLeverage(leverage, market.ccxtSymbol, params)));
    }
  }

  override async readPositions(credentials: Credentials, symbols?: string[]): Promise<Position[]> {
    const positions = await super.readPositions(credentials, symbols);
    for (const position of positions) {
      this.accounts.remember(credentials, { positionMode: position.hedged ? 'hedge' : 'oneway', symbol: position.symbol, marginMode: position.marginMode });
    }
    return positions;
  }

  /** A partial position take-profit (`profit_plan` on place-tpsl-order) carrying our client id. */
  async placeTakeProfit(credentials: Credentials, request: TakeProfitRequest): Promise<PlacedOrder> {
    const market = await this.market(request.symbol);
    return this.withAccountTerms(credentials, market, request.positionMode, (terms) => {
      const params: OrderParams = { clientOrderId: request.clientOrderId, takeProfitPrice: request.triggerPrice, planType: 'profit_plan', ...this.modeParams(terms.mode) };
      return this.placeConditional(credentials, market, request.clientOrderId, (ex) =>
        ex.createOrder(market.ccxtSymbol, 'market', closeSide(request.side), request.quantity, undefined, params),
      );
    });
  }

  /** One execution's own stop, sized (`loss_plan` on place-tpsl-order) and carrying our client id. */
  async placeStopLoss(credentials: Credentials, request: StopLossRequest): Promise<PlacedOrder> {
    const market = await this.market(request.symbol);
    return this.withAccountTerms(credentials, market, request.positionMode, (terms) => {
      const params: OrderParams = { clientOrderId: request.clientOrderId, stopLossPrice: request.triggerPrice, planType: 'loss_plan', ...this.modeParams(terms.mode) };
      return this.placeConditional(credentials, market, request.clientOrderId, (ex) =>
        ex.createOrder(market.ccxtSymbol, 'market', closeSide(request.side), request.quantity, undefined, params),
      );
    });
  }

  /** contract/market/Get-Query-Position-Lever: `endUnit` (USDT), `leverage` and `keepMarginRate` per level. */
  protected async readRiskTiers(symbol: string): Promise<RiskTier[]> {
    const answer = (await bitgetOf(this.client.ccxt).publicMixGetV2MixMarketQueryPositionLever({ symbol, productType: BITGET_PRODUCT.productType })) as { data?: Array<Record<string, string>> };
    return (answer.data ?? []).map((row) => ({ maxValue: Number(row.endUnit), maxLeverage: Number(row.leverage), maintenanceRate: Number(row.keepMarginRate) }));
  }

  /**
   * contract/trade/Get-Order-Fills: the takeover's fills carry `tradeSide` `burst_close_long|short` (hedge) or
   * `burst_sell_single|burst_buy_single` (one-way: a sell takes over a long).
   */
  async findLiquidation(credentials: Credentials, symbol: string, side: PositionSide, since: number): Promise<Liquidation | null> {
    const answer = (await this.call(credentials, (ex) =>
      bitgetOf(ex).privateMixGetV2MixOrderFills({ productType: BITGET_PRODUCT.productType, symbol, startTime: String(since), limit: 100 }),
    )) as { data?: { fillList?: Array<Record<string, string>> | null } };
    const burst = side === 'long' ? ['burst_close_long', 'burst_sell_single'] : ['burst_close_short', 'burst_buy_single'];
    const rows = (answer.data?.fillList ?? []).filter((row) => burst.includes(row.tradeSide ?? '') && Number(row.cTime) >= since);
    return liquidationOf(rows.map((row) => ({ quantity: Number(row.baseVolume), price: Number(row.price) })));
  }

  async costRecords(credentials: Credentials, symbol: string, since: number, until: number): Promise<CostRecord[]> {
    const background: Credentials = { ...credentials, background: true };
    return bitgetCostRecords((work) => this.call(background, work), symbol, since, until);
  }

  async fetchLiveOrders(credentials: Credentials): Promise<LiveOrder[]> {
    const live: LiveOrder[] = [];
    let endId = '';
    for (;;) {
      const page = (await this.call(credentials, (ex) =>
        bitgetOf(ex).privateMixGetV2MixOrderOrdersPlanPending({ productType: BITGET_PRODUCT.productType, planType: 'profit_loss', limit: 100, ...(endId ? { idLessThan: endId } : {}) }),
      )) as { data?: { entrustedList?: Array<Record<string, string>> | null; endId?: string | null } };
      const rows = page.data?.entrustedList ?? [];
      for (const row of rows) live.push({ symbol: row.symbol ?? '', clientOrderId: row.clientOid ?? '', exchangeOrderId: row.orderId ?? '', createdAt: Number(row.cTime ?? 0) });
      if (rows.length < 100 || !page.data?.endId) return live;
      endId = page.data.endId;
    }
  }

  protected async readAttachedLegs(credentials: Credentials, position: { symbol: string; side: PositionSide; positionMode: PositionModeName }, includeDone = false): Promise<AttachedLeg[]> {
    const market = await this.market(position.symbol);
    return this.call(credentials, (ex) => findBitgetAttached(ex, market, position, includeDone));
  }

  async cancelAttachedLeg(credentials: Credentials, symbol: string, leg: Pick<AttachedLeg, 'exchangeOrderId' | 'planType'>): Promise<void> {
    const market = await this.market(symbol);
    await this.call(credentials, (ex) => cancelBitgetPlan(ex, market, leg.exchangeOrderId, leg.planType ?? 'pos_loss'));
  }

  protected async readOrderById(credentials: Credentials, symbol: string, exchangeOrderId: string): Promise<PlacedOrder | null> {
    const market = await this.market(symbol);
    const order = await this.call(credentials, (ex) => findBitgetOrderById(ex, market, exchangeOrderId));
    return order ? placedOrderOf(order, order.clientOrderId ?? '') : null;
  }

  /**
   * A position trailing stop (`moving_plan` on place-tpsl-order, EXCHANGES 3.1): reduce-only by nature
   * (it belongs to the position and goes with it), so no `reduceOnly` flag is needed, which Bitget may
   * refuse on a `track_plan` in one-way mode (22042, LIVE-FIDELITY B5). Bitget trails by a percentage, so
   * a price distance is converted.
   */
  async placeTrailingStop(credentials: Credentials, request: TrailingStopRequest): Promise<PlacedOrder> {
    const market = await this.market(request.symbol);
    const percent = request.callback.type === 'percent' ? request.callback.value : (request.callback.value / request.activationPrice) * 100;
    const ratio = Math.round(percent * 100) / 100;
    if (!(ratio >= 0.01 && ratio <= 10)) {
      throw failure('bitget', 'invalid_request', `trails by 0.01-10% of the price, and ${request.callback.value}${request.callback.type === 'percent' ? '%' : ' USDT'} is ${percent.toFixed(4)}%`, 'change the trailing callback of the strategy');
    }
    return this.withAccountTerms(credentials, market, request.positionMode, ({ mode }) =>
      this.placeConditional(credentials, market, request.clientOrderId, async (ex) => {
        const response = (await bitgetOf(ex).privateMixPostV2MixOrderPlaceTpslOrder({
          symbol: market.symbol,
          ...BITGET_PRODUCT,
          planType: 'moving_plan',
          triggerPrice: ex.priceToPrecision(market.ccxtSymbol, request.activationPrice),
          triggerType: 'mark_price',
          holdSide: holdSide(mode, request.side),
          size: ex.amountToPrecision(market.ccxtSymbol, request.quantity),
          rangeRate: ratio.toString(),
          clientOid: request.clientOrderId,
        })) as { data?: { orderId?: string; clientOid?: string } };
        return ex.safeOrder({ id: response.data?.orderId, clientOrderId: response.data?.clientOid ?? request.clientOrderId, status: 'open' });
      }),
    );
  }

  /**
   * The position stop loss (`pos_loss`): Bitget keeps one per position (the entry's preset stop is one) and
   * refuses a second (43031, LIVE-FIDELITY B6), so an existing one is moved with modify-tpsl-order; without
   * one, place-tpsl-order. Two requests either way (the read, then the write).
   */
  async setStopLoss(credentials: Credentials, request: { symbol: string; side: PositionSide; price: number; positionMode: PositionModeName }): Promise<void> {
    const market = await this.market(request.symbol);
    const { mode } = await this.accountTerms(credentials, market, request.positionMode);
    const move = async (existing: Order) =>
      this.call(credentials, (ex) =>
        bitgetOf(ex).privateMixPostV2MixOrderModifyTpslOrder({
          orderId: existing.id,
          symbol: market.symbol,
          ...BITGET_PRODUCT,
          triggerPrice: ex.priceToPrecision(market.ccxtSymbol, request.price),
          triggerType: 'mark_price',
          size: '',
        }),
      );
    const existing = await this.call(credentials, (ex) => findPositionStop(ex, market, mode, request.side));
    if (existing) {
      await move(existing);
      return;
    }
    try {
      await this.call(credentials, (ex) =>
        bitgetOf(ex).privateMixPostV2MixOrderPlaceTpslOrder({
          symbol: market.symbol,
          ...BITGET_PRODUCT,
          planType: 'pos_loss',
          triggerPrice: ex.priceToPrecision(market.ccxtSymbol, request.price),
          triggerType: 'mark_price',
          holdSide: holdSide(mode, request.side),
        }),
      );
    } catch (error) {
      // Placed meanwhile (by a retry of ours): move that one.
      if (!(error instanceof ExchangeFailure) || error.exchangeCode !== STOP_EXISTS_CODE) throw error;
      const placed = await this.call(credentials, (ex) => findPositionStop(ex, market, mode, request.side));
      if (!placed) throw error;
      await move(placed);
    }
  }

  /** One request: the kind says whether it is a normal order or which plan. Gone already = done. */
  async cancelOrder(credentials: Credentials, symbol: string, clientOrderId: string, kind: OrderKind = orderKindOf(clientOrderId)): Promise<void> {
    const market = await this.market(symbol);
    await this.call(credentials, (ex) => cancelBitgetOrder(ex, market, clientOrderId, kind));
  }

  /** At most two reads: order detail for orders; the plan list of the kind, open then history, for plans. */
  protected async readOrderByClientId(credentials: Credentials, symbol: string, clientOrderId: string, kind: OrderKind = orderKindOf(clientOrderId)): Promise<PlacedOrder | null> {
    const market = await this.market(symbol);
    const order = await this.call(credentials, (ex) => findBitgetOrder(ex, market, clientOrderId, kind));
    return order ? placedOrderOf(order, clientOrderId) : null;
  }

  async checkKey(credentials: Credentials): Promise<KeyCheck> {
    const probe = await this.market('BTCUSDT');
    return checkBitgetKey({
      call: (work) => this.call(credentials, work),
      positionMode: async () => (await this.accounts.fresh(credentials, probe)).positionMode,
      probeTrade: () => this.cancelOrder(credentials, probe.symbol, KEY_PROBE_CLIENT_ID, 'order'),
    });
  }

  private async readSettings(credentials: Credentials, market: MarketInfo): Promise<SymbolSettings> {
    const response = (await this.call(credentials, (ex: Exchange) =>
      bitgetOf(ex).privateMixGetV2MixAccountAccount({ symbol: market.symbol, ...BITGET_PRODUCT }),
    )) as { data?: SingleAccount };
    const data = response.data ?? {};
    return { positionMode: data.posMode === 'hedge_mode' ? 'hedge' : 'oneway', marginMode: data.marginMode === 'isolated' ? 'isolated' : 'cross' };
  }
}

function hedgeRefused(exchangeCode?: string): ExchangeFailure {
  const code = exchangeCode ? ` (${exchangeCode})` : '';
  return new ExchangeFailure(
    'invalid_request',
    false,
    `Bitget cannot switch this account from one-way to hedge mode while it holds positions or orders${code}: close them on Bitget, or trade this strategy in one-way mode`,
    exchangeCode,
  );
}
