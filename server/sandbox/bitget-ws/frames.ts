import type { AccountEvent, OrderChange } from '../account-events';
import { accountView, orderView, planView, positionView } from '../bitget/format';
import { formatNumber as num } from '../markets';
import type { Sandbox } from '../sandbox';
import type { Push, StreamEncoder, Subscription } from '../streams/hub';
import type { Account, Fill, Order, OrderStatus, Position } from '../types';

/** The one product type of the sandbox's Bitget (USDT-M perpetuals). */
export const BITGET_INST_TYPE = 'USDT-FUTURES';

/** planType as orders-algo pushes it (bitget.com/api-doc/contract/websocket/private/Plan-Order-Channel), by the REST planType. */
const algoPlanTypes: Record<string, string> = {
  normal_plan: 'pl',
  track_plan: 'track',
  profit_plan: 'tp',
  loss_plan: 'sl',
  pos_profit: 'ptp',
  pos_loss: 'psl',
  moving_plan: 'mtpsl',
};

/** Order-Channel status; "cancelled" is what ccxt 4.5.84 (parseWsOrderStatus) and JKorf/Bitget.Net parse (REST says "canceled"). */
const streamStatus: Record<OrderStatus, string> = {
  new: 'live',
  partially_filled: 'partially_filled',
  filled: 'filled',
  cancelled: 'cancelled',
  untriggered: 'live',
  triggered: 'live',
  deactivated: 'cancelled',
  rejected: 'cancelled',
};

function isPlan(order: Order): boolean {
  return order.kind !== 'normal' || order.labels.planType !== undefined;
}

/**
 * Which channel an order event goes to: a plan (trigger, TP/SL, trailing) that has not fired, or fires or fails
 * to, on orders-algo; the order a fired plan placed, and every other order, on orders.
 */
function onAlgo(order: Order, change: OrderChange): boolean {
  if (!isPlan(order)) return false;
  return change === 'triggered' || change === 'rejected' || order.labels.executeOrderId === undefined;
}

/** An order as the orders channel pushes it (Order-Channel): the order, and with a fill that fill's fields. */
export function orderStreamView(sandbox: Sandbox, account: Account, order: Order, fill?: Fill): Record<string, unknown> {
  const rest = orderView(sandbox, account, order);
  const id = order.labels.executeOrderId ?? order.id;
  const view: Record<string, unknown> = {
    instId: order.symbol,
    orderId: id,
    clientOid: order.labels.executeOrderId ?? order.clientId,
    size: rest.size,
    price: rest.price,
    priceAvg: rest.priceAvg,
    status: streamStatus[order.status],
    side: rest.side,
    force: rest.force,
    posSide: rest.posSide,
    tradeSide: rest.tradeSide,
    posMode: rest.posMode,
    marginCoin: rest.marginCoin,
    marginMode: rest.marginMode,
    orderType: rest.orderType,
    leverage: rest.leverage,
    reduceOnly: order.reduceOnly ? 'yes' : 'no',
    enterPointSource: rest.enterPointSource,
    accBaseVolume: num(order.filledQty),
    notionalUsd: num(order.qty * (order.avgPrice || order.price || sandbox.prices.last(order.symbol))),
    feeDetail: [{ feeCoin: 'USDT', fee: num(-order.fee) }],
    totalProfits: rest.totalProfits,
    presetStopSurplusPrice: rest.presetStopSurplusPrice,
    presetStopLossPrice: rest.presetStopLossPrice,
    cancelReason: rest.cancelReason,
    stpMode: 'none',
    cTime: rest.cTime,
    uTime: rest.uTime,
  };
  if (fill) Object.assign(view, fillFields(fill));
  return view;
}

function fillFields(fill: Fill): Record<string, unknown> {
  return {
    tradeId: fill.id,
    baseVolume: num(fill.qty),
    fillPrice: num(fill.price),
    fillFee: num(-fill.fee),
    fillFeeCoin: 'USDT',
    fillNotionalUsd: num(fill.qty * fill.price),
    fillTime: String(fill.time),
    tradeScope: fill.maker ? 'M' : 'T',
    pnl: num(fill.pnl),
  };
}

/** A plan as orders-algo pushes it (Plan-Order-Channel); `status` live, executed, cancelled. */
export function algoStreamView(sandbox: Sandbox, account: Account, order: Order): Record<string, unknown> {
  const rest = planView(sandbox, account, order);
  return {
    instId: order.symbol,
    orderId: order.id,
    clientOid: order.clientId,
    triggerPrice: rest.triggerPrice,
    triggerType: rest.triggerType,
    triggerTime: order.status === 'untriggered' ? '' : String(order.updatedAt),
    planType: algoPlanTypes[String(rest.planType)] ?? rest.planType,
    price: rest.price,
    executePrice: rest.executePrice,
    size: rest.size,
    actualSize: num(order.filledQty),
    orderType: rest.orderType,
    side: rest.side,
    tradeSide: rest.tradeSide,
    posSide: rest.posSide,
    marginCoin: rest.marginCoin,
    marginMode: rest.marginMode,
    status: rest.planStatus,
    posMode: rest.posMode,
    enterPointSource: rest.enterPointSource,
    callbackRatio: rest.callbackRatio,
    stopSurplusTriggerPrice: rest.stopSurplusTriggerPrice,
    stopSurplusTriggerType: rest.stopSurplusTriggerPrice ? rest.triggerType : '',
    stopLossTriggerPrice: rest.stopLossTriggerPrice,
    stopLossTriggerType: rest.stopLossTriggerPrice ? rest.triggerType : '',
    stpMode: 'none',
    cTime: rest.cTime,
    uTime: rest.uTime,
  };
}

/** One open position as the positions channel pushes it (Positions-Channel). */
export function positionStreamView(sandbox: Sandbox, account: Account, position: Position): Record<string, unknown> {
  const rest = positionView(sandbox, account, position);
  const margin = Number(rest.marginSize);
  return {
    posId: `${position.createdAt}${position.idx}`,
    instId: position.symbol,
    marginCoin: rest.marginCoin,
    marginSize: rest.marginSize,
    marginMode: rest.marginMode,
    holdSide: rest.holdSide,
    posMode: rest.posMode,
    total: rest.total,
    available: rest.available,
    frozen: rest.locked,
    openPriceAvg: rest.openPriceAvg,
    leverage: Number(rest.leverage),
    achievedProfits: rest.achievedProfits,
    unrealizedPL: rest.unrealizedPL,
    unrealizedPLR: num(margin > 0 ? Number(rest.unrealizedPL) / margin : 0),
    liquidationPrice: rest.liquidationPrice,
    keepMarginRate: rest.keepMarginRate,
    marginRate: rest.marginRatio,
    breakEvenPrice: rest.breakEvenPrice,
    totalFee: rest.totalFee,
    deductedFee: rest.deductedFee,
    markPrice: rest.markPrice,
    autoMargin: rest.autoMargin,
    cTime: rest.cTime,
    uTime: rest.uTime,
  };
}

/** The USDT margin account as the account channel pushes it (Account-Channel). */
export function accountStreamView(sandbox: Sandbox, account: Account): Record<string, unknown> {
  const rest = accountView(sandbox, account);
  return {
    marginCoin: rest.marginCoin,
    frozen: rest.locked,
    available: rest.available,
    maxOpenPosAvailable: rest.crossedMaxAvailable,
    maxTransferOut: rest.maxTransferOut,
    equity: rest.accountEquity,
    usdtEquity: rest.usdtEquity,
    crossedRiskRate: rest.crossedRiskRate,
    unrealizedPL: rest.unrealizedPL,
  };
}

/** "Data will be pushed when ... Open/Close orders are created ... filled ... canceled" (Positions-Channel). */
const positionTouching: ReadonlySet<OrderChange> = new Set(['created', 'activated', 'cancelled', 'rejected']);

/**
 * Bitget's private channels from the account events. An order event is an orders push (a plan that has not
 * fired: an orders-algo push), with the fill's fields when it filled, then a positions push when an order was
 * created or cancelled; a position change is a positions push (every open position, `[]` when none is left);
 * a wallet change an account push. Executions carry no push of their own (the orders push has the fill).
 * Frames: `{action:"snapshot", arg, data, ts}`.
 */
export class BitgetPushEncoder implements StreamEncoder {
  constructor(private readonly sandbox: Sandbox) {}

  pushes(account: Account, event: AccountEvent): Push[] {
    const { sandbox } = this;
    const time = sandbox.now();
    switch (event.type) {
      case 'order': {
        const { order, change, fill } = event;
        const plan = onAlgo(order, change);
        const pushes: Push[] = [
          plan
            ? { channel: 'orders-algo', symbol: order.symbol, time, data: () => [algoStreamView(sandbox, account, order)] }
            : { channel: 'orders', symbol: order.symbol, time, data: () => [orderStreamView(sandbox, account, order, fill)] },
        ];
        if (!plan && positionTouching.has(change)) pushes.push(this.positions(account, time));
        return pushes;
      }
      case 'execution':
        return [];
      case 'position':
        return [this.positions(account, time)];
      case 'wallet':
        return [{ channel: 'account', time, data: () => [accountStreamView(sandbox, account)] }];
    }
  }

  frame(push: Push, data: unknown[], subscription: Subscription): string {
    return `{"action":"snapshot","arg":${subscription.key},"data":${JSON.stringify(data)},"ts":${push.time}}`;
  }

  private positions(account: Account, time: number): Push {
    const open = () => [...account.positions.values()].filter((position) => position.side !== null);
    return { channel: 'positions', time, data: () => open().map((position) => positionStreamView(this.sandbox, account, position)) };
  }
}
