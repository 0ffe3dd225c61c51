import type { Engine } from './engine';
import { conditionalAffordable } from './margin-check';
import type { Quote } from './prices';
import type { Account, Order, Position, Side, Trailing } from './types';
import { isOpen } from './types';

/** Updates a trailing stop with a new price; answers true when it fires. `exitSide` sell protects a long. */
export function trailingFires(trailing: Trailing, exitSide: Side, price: number): boolean {
  const protectsLong = exitSide === 'sell';
  if (!trailing.active) {
    const reached = trailing.activation === undefined || (protectsLong ? price >= trailing.activation : price <= trailing.activation);
    if (!reached) return false;
    trailing.active = true;
    trailing.extreme = price;
    return false;
  }
  trailing.extreme = protectsLong ? Math.max(trailing.extreme, price) : Math.min(trailing.extreme, price);
  const offset = trailing.ratio !== undefined ? (trailing.extreme * trailing.ratio) / 100 : (trailing.distance ?? 0);
  const stop = protectsLong ? trailing.extreme - offset : trailing.extreme + offset;
  return protectsLong ? price <= stop : price >= stop;
}

function crossed(direction: 0 | 1 | 2, trigger: number, price: number): boolean {
  return direction === 1 ? price >= trigger : direction === 2 ? price <= trigger : false;
}

/** TP fires when the price moves in the position's favour to the trigger, SL when against it (on the price the order watches). */
function tpslFires(order: Order, position: Position, price: number): boolean {
  const long = position.side === 'long';
  const takeProfit = order.labels.tpsl === 'tp';
  return long === takeProfit ? price >= order.triggerPrice : price <= order.triggerPrice;
}

/** Runs every order and position rule of one account on the symbol's new prices until nothing more fires. */
export function evaluate(engine: Engine, account: Account, symbol: string, quote: Quote): void {
  for (let round = 0; round < 20; round += 1) {
    if (!evaluateOnce(engine, account, symbol, quote)) return;
  }
}

/** Whether one open order fires on these prices: resting limits on the last price, triggers on the price they watch. */
function fires(engine: Engine, account: Account, order: Order, quote: Quote): boolean {
  const price = quote[order.triggerOn];
  if (order.kind === 'normal') return order.type === 'limit' && (order.side === 'buy' ? quote.last <= order.price : quote.last >= order.price);
  if (order.kind === 'conditional') return crossed(order.triggerDirection, order.triggerPrice, price);
  if (order.kind === 'tpsl') {
    const position = engine.slot(account, order.symbol, order.positionIdx);
    return position.side !== null && tpslFires(order, position, price);
  }
  return order.trailing !== undefined && trailingFires(order.trailing, order.side, price);
}

function evaluateOnce(engine: Engine, account: Account, symbol: string, quote: Quote): boolean {
  let changed = false;
  for (const order of [...account.orders]) {
    if (order.symbol !== symbol || !isOpen(order) || !fires(engine, account, order, quote)) continue;
    if (order.kind === 'normal') engine.fill(account, order, order.price);
    else triggerOrder(engine, account, order);
    changed = true;
  }
  for (const position of account.positions.values()) {
    if (position.symbol !== symbol || !position.side) continue;
    const rule = positionRule(position, quote);
    // An exit the book cannot fill at all leaves the position's rule armed for the next price, not for another round now.
    if (rule && closeByRule(engine, account, position, rule, quote.last).filledQty > 0) changed = true;
  }
  return changed;
}

/**
 * A triggered order executes as taker against the book (Engine.trigger); a limit one rests for what it cannot
 * take. A Bybit conditional order first needs the margin to carry it: "If the margin is insufficient after the
 * conditional order is triggered, the order will be cancelled" (Engine.cancel: pushed as cancelled), unless it
 * is closeOnTrigger, which frees margin by cancelling the symbol's opening orders and reduces the position
 * whatever the margin (create-order.mdx).
 */
function triggerOrder(engine: Engine, account: Account, order: Order): void {
  if (account.exchange === 'bybit' && order.kind === 'conditional' && !conditionalAffordable(engine, account, order)) {
    if (!order.closeOnTrigger) {
      engine.cancel(account, order, 'insufficientMargin');
      return;
    }
    for (const other of account.orders) {
      if (other !== order && other.symbol === order.symbol && isOpen(other) && !other.reduceOnly && other.kind === 'normal') engine.cancel(account, other, 'closeOnTrigger');
    }
  }
  engine.trigger(account, order);
}

function positionRule(position: Position, quote: Quote): 'TakeProfit' | 'StopLoss' | 'TrailingStop' | undefined {
  const long = position.side === 'long';
  const tp = quote[position.tpTriggerOn];
  const sl = quote[position.slTriggerOn];
  if (position.takeProfit && (long ? tp >= position.takeProfit : tp <= position.takeProfit)) return 'TakeProfit';
  if (position.stopLoss && (long ? sl <= position.stopLoss : sl >= position.stopLoss)) return 'StopLoss';
  if (position.trailing && trailingFires(position.trailing, long ? 'sell' : 'buy', quote.last)) return 'TrailingStop';
  return undefined;
}

/** Position-level TP/SL/trailing: closes the whole position with a market order Bybit-style (stopOrderType). */
function closeByRule(engine: Engine, account: Account, position: Position, rule: string, price: number): Order {
  return engine.placeTriggered(account, {
    symbol: position.symbol,
    side: position.side === 'long' ? 'sell' : 'buy',
    type: 'market',
    qty: 0,
    price: 0,
    reduceOnly: true,
    positionIdx: position.idx,
    clientId: '',
    kind: 'tpsl',
    wholePosition: true,
    triggerPrice: rule === 'TakeProfit' ? position.takeProfit : rule === 'StopLoss' ? position.stopLoss : price,
    labels: { stopOrderType: rule, tpsl: rule === 'TakeProfit' ? 'tp' : 'sl', planType: rule === 'TakeProfit' ? 'pos_profit' : rule === 'StopLoss' ? 'pos_loss' : 'moving_plan' },
  });
}
