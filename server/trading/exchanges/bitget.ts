import type { bitget as BitgetExchange, Exchange, Order } from 'ccxt';
import { CcxtAdapter, closeSide, placedOrderOf, type OrderParams } from './ccxt-adapter';
import { failure } from './errors';
import { refusedKey } from './key-check';
import type { MarketInfo } from './types';
import {
  ExchangeFailure,
  type Credentials,
  type KeyCheck,
  type PlacedOrder,
  type PositionModeName,
  type PositionSide,
  type TakeProfitRequest,
  type TrailingStopRequest,
} from './types';

const PRODUCT = { productType: 'USDT-FUTURES', marginCoin: 'USDT' } as const;
/** The plan lists (orders-plan-pending / -history) by plan type: TP/SL plans, trailing (track_plan), trigger orders. */
const PLAN_QUERIES: OrderParams[] = [{ trigger: true, planType: 'profit_loss' }, { trailing: true }, { trigger: true, planType: 'normal_plan' }];

const bitgetOf = (ex: Exchange) => ex as BitgetExchange;

/** Bitget's holdSide of a position TP/SL: buy/sell in one-way mode, long/short in hedge mode. */
const holdSide = (mode: PositionModeName, side: PositionSide) => (mode === 'hedge' ? side : side === 'long' ? 'buy' : 'sell');

interface AccountInfo {
  ips?: string | string[];
  authorities?: string[];
  permissions?: string[];
}

/** Bitget V2 USDT-M futures, classic account (EXCHANGES section 3; `uta: false`). */
export class BitgetAdapter extends CcxtAdapter {
  readonly exchange = 'bitget' as const;

  /** ccxt would send marginMode "crossed" whatever the account uses: we say it ourselves. */
  protected orderParams(): OrderParams {
    return { marginMode: 'cross' };
  }

  protected isUnchanged(error: ExchangeFailure): boolean {
    return /not modified|no change|unchanged|same/i.test(error.staffMessage);
  }

  async setPositionMode(credentials: Credentials, symbol: string, mode: PositionModeName): Promise<void> {
    const market = await this.market(symbol);
    await this.tolerate('positionMode', () => this.call(credentials, (ex) => ex.setPositionMode(mode === 'hedge', market.ccxtSymbol)));
  }

  /** A partial position take-profit (`profit_plan` on place-tpsl-order) carrying our client id. */
  async placeTakeProfit(credentials: Credentials, request: TakeProfitRequest): Promise<PlacedOrder> {
    const market = await this.market(request.symbol);
    const params: OrderParams = { clientOrderId: request.clientOrderId, takeProfitPrice: request.triggerPrice, planType: 'profit_plan', ...this.modeParams(request.positionMode) };
    return this.placeConditional(credentials, market, request.clientOrderId, (ex) =>
      ex.createOrder(market.ccxtSymbol, 'market', closeSide(request.side), request.quantity, undefined, params),
    );
  }

  /** A `track_plan` (place-plan-order): Bitget trails by a percentage, so a price distance is converted. */
  async placeTrailingStop(credentials: Credentials, request: TrailingStopRequest): Promise<PlacedOrder> {
    const market = await this.market(request.symbol);
    const percent = request.callback.type === 'percent' ? request.callback.value : (request.callback.value / request.activationPrice) * 100;
    const ratio = Math.round(percent * 100) / 100;
    if (!(ratio >= 0.01 && ratio <= 10)) {
      throw failure('bitget', 'invalid_request', `trails by 0.01-10% of the price, and ${request.callback.value}${request.callback.type === 'percent' ? '%' : ' USDT'} is ${percent.toFixed(4)}%`, 'change the trailing callback of the strategy');
    }
    const params: OrderParams = {
      clientOrderId: request.clientOrderId,
      trailingPercent: ratio.toString(),
      trailingTriggerPrice: request.activationPrice,
      reduceOnly: true,
      ...this.orderParams(),
      ...this.modeParams(request.positionMode),
    };
    return this.placeConditional(credentials, market, request.clientOrderId, (ex) =>
      ex.createOrder(market.ccxtSymbol, 'market', closeSide(request.side), request.quantity, undefined, params),
    );
  }

  /** The position stop loss (`pos_loss` on place-tpsl-order); a new one replaces the position's previous one. */
  async setStopLoss(credentials: Credentials, request: { symbol: string; side: PositionSide; price: number; positionMode: PositionModeName }): Promise<void> {
    const market = await this.market(request.symbol);
    await this.call(credentials, (ex) =>
      bitgetOf(ex).privateMixPostV2MixOrderPlaceTpslOrder({
        symbol: market.symbol,
        ...PRODUCT,
        planType: 'pos_loss',
        triggerPrice: ex.priceToPrecision(market.ccxtSymbol, request.price),
        triggerType: 'mark_price',
        holdSide: holdSide(request.positionMode, request.side),
      }),
    );
  }

  /** Normal orders by clientOid; TP/SL and trailing plans through their plan type. Gone already = done. */
  async cancelOrder(credentials: Credentials, symbol: string, clientOrderId: string): Promise<void> {
    const market = await this.market(symbol);
    try {
      await this.call(credentials, (ex) => ex.cancelOrder(undefined as unknown as string, market.ccxtSymbol, { clientOrderId }));
      return;
    } catch (error) {
      if (!(error instanceof ExchangeFailure) || error.code !== 'not_found') throw error;
    }
    const plan = await this.findPlan(credentials, market, clientOrderId, false);
    if (!plan) return;
    const planType = String((plan.info as Record<string, unknown>).planType ?? 'profit_plan');
    try {
      await this.call(credentials, (ex) => ex.cancelOrder(undefined as unknown as string, market.ccxtSymbol, { trigger: true, clientOrderId, planType }));
    } catch (error) {
      // Triggered or cancelled between the lookup and the cancel.
      if (!(error instanceof ExchangeFailure) || error.code !== 'not_found') throw error;
    }
  }

  /** GET /api/v2/mix/order/detail knows normal orders only; plans are looked up in the plan lists. */
  async fetchOrderByClientId(credentials: Credentials, symbol: string, clientOrderId: string): Promise<PlacedOrder | null> {
    const market = await this.market(symbol);
    try {
      const order = await this.call(credentials, (ex) => ex.fetchOrder(undefined as unknown as string, market.ccxtSymbol, { clientOrderId }));
      return placedOrderOf(order, clientOrderId);
    } catch (error) {
      if (!(error instanceof ExchangeFailure) || error.code !== 'not_found') throw error;
    }
    const plan = await this.findPlan(credentials, market, clientOrderId, true);
    return plan ? placedOrderOf(plan, clientOrderId) : null;
  }

  /** Open plans first, then plan history (a triggered take-profit must still be found). */
  private async findPlan(credentials: Credentials, market: MarketInfo, clientOrderId: string, withHistory: boolean): Promise<Order | undefined> {
    return this.call(credentials, async (ex) => {
      for (const query of PLAN_QUERIES) {
        const open = await ex.fetchOpenOrders(market.ccxtSymbol, undefined, undefined, { ...query, clientOid: clientOrderId });
        const found = open.find((plan) => plan.clientOrderId === clientOrderId);
        if (found) return found;
      }
      for (const query of withHistory ? PLAN_QUERIES : []) {
        const done = await ex.fetchCanceledAndClosedOrders(market.ccxtSymbol, undefined, undefined, { ...query, clientOid: clientOrderId });
        const found = done.find((plan) => plan.clientOrderId === clientOrderId);
        if (found) return found;
      }
      return undefined;
    });
  }

  /** GET /api/v2/spot/account/info: permissions and bound IPs; the mode from the futures account. */
  async checkKey(credentials: Credentials): Promise<KeyCheck> {
    let info: AccountInfo;
    try {
      const response = (await this.call(credentials, (ex) => bitgetOf(ex).privateSpotGetV2SpotAccountInfo())) as { data?: AccountInfo };
      info = response.data ?? {};
    } catch (error) {
      return refusedKey(error);
    }
    const authorities = [...(info.authorities ?? []), ...(info.permissions ?? [])].map((a) => a.toLowerCase());
    // Bitget permission codes: coow/cpow = contract orders/positions read-write, wwow = withdraw.
    const canTrade = authorities.includes('coow');
    const canWithdraw = authorities.some((a) => a === 'wwow' || a.includes('withdraw'));
    const ips = (Array.isArray(info.ips) ? info.ips : (info.ips ?? '').split(',')).map((ip) => ip.trim()).filter((ip) => ip && ip !== '*');
    return { valid: true, canTrade, canWithdraw, ipBound: ips.length > 0, positionMode: await this.positionMode(credentials), error: undefined };
  }

  /**
   * The futures account answer carries `posMode` on live Bitget; open positions carry it too.
   * With neither, the mode is unknown until the first position.
   */
  private async positionMode(credentials: Credentials): Promise<PositionModeName | undefined> {
    const response = (await this.call(credentials, (ex) => bitgetOf(ex).privateMixGetV2MixAccountAccounts({ productType: PRODUCT.productType })).catch(() => undefined)) as
      | { data?: Array<{ marginCoin?: string; posMode?: string }> }
      | undefined;
    const posMode = response?.data?.find((row) => row.marginCoin === 'USDT')?.posMode;
    if (posMode === 'hedge_mode') return 'hedge';
    if (posMode === 'one_way_mode') return 'oneway';
    const positions = await this.fetchPositions(credentials).catch(() => []);
    if (positions.length === 0) return undefined;
    return positions.some((p) => p.hedged) ? 'hedge' : 'oneway';
  }
}
