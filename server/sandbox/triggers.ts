import type { Engine } from './engine';
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

/** TP fires when the price moves in the position's favour to the trigger, SL when against it. */
function tpslFires(order: Order, position: Position, price: number): boolean {
  const long = position.side === 'long';
  const takeProfit = order.labels.tpsl === 'tp';
  return long === takeProfit ? price >= order.triggerPrice : price <= order.triggerPrice;
}

/** Runs every order and position rule of one account on a new mark price until nothing more fires. */
export function evaluate(engine: Engine, account: Account, symbol: string, price: number): void {
  for (let round = 0; round < 20; round += 1) {
    if (!evaluateOnce(engine, account, symbol, price)) return;
  }
}

function evaluateOnce(engine: Engine, account: Account, symbol: string, price: number): boolean {
  let changed = false;
  for (const order of [...account.orders]) {
    if (order.symbol !== symbol || !isOpen(order)) continue;
    const position = engine.slot(account, symbol, order.positionIdx);
    if (order.kind === 'normal') {
      if (order.type === 'limit' && (order.side === 'buy' ? price <= order.price : price >= order.price)) {
        engine.fill(account, order, order.price);
        changed = true;
      }
    } else if (order.kind === 'conditional') {
      if (crossed(order.triggerDirection, order.triggerPrice, price)) {
        engine.trigger(account, order);
        changed = true;
      }
    } else if (order.kind === 'tpsl') {
      if (position.side && tpslFires(order, position, price)) {
        engine.trigger(account, order);
        changed = true;
      }
    } else if (order.trailing && trailingFires(order.trailing, order.side, price)) {
      engine.trigger(account, order);
      changed = true;
    }
  }
  for (const position of account.positions.values()) {
    if (position.symbol !== symbol || !position.side) continue;
    const rule = positionRule(position, price);
    // An exit the book cannot fill at all leaves the position's rule armed for the next price, not for another round now.
    if (rule && closeByRule(engine, account, position, rule, price).filledQty > 0) changed = true;
  }
  return changed;
}

function positionRule(position: Position, price: number): 'TakeProfit' | 'StopLoss' | 'TrailingStop' | undefined {
  const long = position.side === 'long';
  if (position.takeProfit && (long ? price >= position.takeProfit : price <= position.takeProfit)) return 'TakeProfit';
  if (position.stopLoss && (long ? price <= position.stopLoss : price >= position.stopLoss)) return 'StopLoss';
  if (position.trailing && trailingFires(position.trailing, long ? 'sell' : 'buy', price)) return 'TrailingStop';
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
