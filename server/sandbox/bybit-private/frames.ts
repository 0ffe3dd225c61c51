import type { AccountEvent, OrderChange } from '../account-events';
import { orderView, positionView, walletView } from '../bybit/format';
import { executionView } from '../bybit/records';
import { feeRates } from '../engine';
import { formatNumber as num } from '../markets';
import { randomHex } from '../random-hex';
import type { Sandbox } from '../sandbox';
import type { Push, StreamEncoder, Subscription } from '../streams/hub';
import type { Account, Fill, Order, Position } from '../types';

/** An order as the `order` topic pushes it (docs/v5/websocket/private/order.mdx): the REST order (its `createType` too) plus the stream's own fields. */
export function orderStreamView(order: Order): Record<string, unknown> {
  const rest = orderView(order);
  return {
    category: 'linear',
    ...rest,
    parentOrderLinkId: '',
    brokerOrderPrice: '',
    avgPrice: order.filledQty > 0 ? rest.avgPrice : '',
    closedPnl: num(order.closedPnl),
    feeCurrency: '',
    slippageToleranceType: 'UNKNOWN',
    slippageTolerance: '0',
    rpiTakerAccess: false,
    rpiMatchedQty: '0',
  };
}

/**
 * One execution as the `execution` topic pushes it (docs/v5/websocket/private/execution.mdx): the REST
 * execution/list row of the same record (a trade, a liquidation's BustTrade, a Funding settlement without an
 * order) plus the stream's own fields.
 */
export function executionStreamView(fill: Fill, order: Order | undefined): Record<string, unknown> {
  return {
    category: 'linear',
    ...executionView(fill, order),
    isLeverage: '',
    execPnl: num(fill.pnl),
    marketUnit: '',
    feeCurrency: 'USDT',
  };
}

/** breakEvenPrice = (entry_price * qty - realized_pnl) / (qty - abs(qty) * max(taker fee rate, 0.00055)), qty signed (position.mdx). */
function breakEvenOf(position: Position): number {
  if (!position.side || position.size === 0) return 0;
  const qty = position.side === 'long' ? position.size : -position.size;
  const rate = Math.max(feeRates.bybit.taker, 0.00055);
  return (position.entryPrice * qty - position.realisedPnl) / (qty - Math.abs(qty) * rate);
}

/** A position as the `position` topic pushes it (docs/v5/websocket/private/position.mdx): `entryPrice`, not REST's `avgPrice`. */
export function positionStreamView(sandbox: Sandbox, account: Account, position: Position): Record<string, unknown> {
  const rest = positionView(sandbox, account, position);
  return {
    category: 'linear',
    symbol: rest.symbol,
    side: rest.side,
    size: rest.size,
    positionIdx: rest.positionIdx,
    tradeMode: rest.tradeMode,
    positionValue: rest.positionValue,
    riskId: rest.riskId,
    riskLimitValue: rest.riskLimitValue,
    entryPrice: rest.avgPrice,
    markPrice: rest.markPrice,
    leverage: rest.leverage,
    breakEvenPrice: num(breakEvenOf(position)),
    positionBalance: rest.positionBalance,
    autoAddMargin: rest.autoAddMargin,
    positionIM: rest.positionIM,
    positionIMByMp: rest.positionIM,
    positionMM: rest.positionMM,
    positionMMByMp: rest.positionMM,
    liqPrice: rest.liqPrice,
    bustPrice: rest.bustPrice,
    tpslMode: 'Full',
    takeProfit: rest.takeProfit,
    stopLoss: rest.stopLoss,
    trailingStop: rest.trailingStop,
    unrealisedPnl: rest.unrealisedPnl,
    curRealisedPnl: rest.curRealisedPnl,
    sessionAvgPrice: '',
    cumRealisedPnl: rest.cumRealisedPnl,
    positionStatus: rest.positionStatus,
    adlRankIndicator: rest.adlRankIndicator,
    isReduceOnly: rest.isReduceOnly,
    mmrSysUpdatedTime: '',
    leverageSysUpdatedTime: '',
    createdTime: rest.createdTime,
    updatedTime: rest.updatedTime,
    openTime: position.side ? position.createdAt : 0,
    seq: position.seq,
  };
}

/** The wallet as the `wallet` topic pushes it (docs/v5/websocket/private/wallet.mdx): the REST wallet plus the ...ByMp fields. */
export function walletStreamView(sandbox: Sandbox, account: Account): Record<string, unknown> {
  const rest = walletView(sandbox, account);
  const coins = (rest.coin as Array<Record<string, unknown>>).map((coin) => ({ ...coin, spotBorrow: '0' }));
  return {
    ...rest,
    accountIMRateByMp: rest.accountIMRate,
    accountMMRateByMp: rest.accountMMRate,
    totalInitialMarginByMp: rest.totalInitialMargin,
    totalMaintenanceMarginByMp: rest.totalMaintenanceMargin,
    accountLTV: '0',
    coin: coins,
  };
}

/** "Every time when you create/amend/cancel an order, the position topic will generate a new message" (position.mdx). */
const positionTouching: ReadonlySet<OrderChange> = new Set(['created', 'activated', 'amended', 'cancelled', 'rejected']);

/**
 * Bybit's private topics from the account events. An order event is one `order` push (then a `position` push
 * of its slot when it was created, amended or cancelled); an execution one `execution` push; a position one
 * `position` push; a wallet change one `wallet` push. Frames: `{id, topic, creationTime, data}`.
 */
export class BybitPushEncoder implements StreamEncoder {
  /** Message ids: the account's uid, this sandbox's random prefix and a counter (unique, cheap). */
  private readonly prefix = randomHex(6);
  private messages = 0;

  constructor(private readonly sandbox: Sandbox) {}

  pushes(account: Account, event: AccountEvent): Push[] {
    const { sandbox } = this;
    const time = sandbox.now();
    this.messages += 1;
    const id = `${account.uid}${this.prefix}-${this.messages.toString(16)}`;
    switch (event.type) {
      case 'order': {
        const order = event.order;
        const pushes: Push[] = [{ channel: 'order', id, time, data: () => [orderStreamView(order)] }];
        if (positionTouching.has(event.change)) {
          const position = sandbox.engine.slot(account, order.symbol, order.positionIdx);
          pushes.push({ channel: 'position', id: `${id}p`, time, data: () => [positionStreamView(sandbox, account, position)] });
        }
        return pushes;
      }
      case 'execution': {
        const { order, fill } = event;
        return [{ channel: 'execution', id: `${account.uid}_${fill.symbol}_${fill.seq}`, time, data: () => [executionStreamView(fill, order)] }];
      }
      case 'position':
        return [{ channel: 'position', id, time, data: () => [positionStreamView(sandbox, account, event.position)] }];
      case 'wallet':
        return [{ channel: 'wallet', id, time, data: () => [walletStreamView(sandbox, account)] }];
    }
  }

  frame(push: Push, data: unknown[], subscription: Subscription): string {
    return JSON.stringify({ id: push.id, topic: subscription.key, creationTime: push.time, data });
  }
}
