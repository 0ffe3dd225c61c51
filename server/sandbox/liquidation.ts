import type { Engine } from './engine';
import { positionMargin, unrealisedOf, wallet } from './margin';
import { findMarket, roundToStep } from './markets';
import { maintenanceMargin } from './risk-tiers';
import type { Account, Position } from './types';
import { isOpen } from './types';

/**
 * Liquidation as both exchanges describe it: a position is liquidated when the mark price reaches its
 * liquidation price, where the margin backing it falls to its maintenance margin (the risk tier's rate of its
 * value, risk-tiers.ts). Isolated: the position's own margin (value at entry / leverage). Cross: the account's
 * wallet (less isolated margins) with every other cross position's unrealised PnL at its mark price, against
 * every cross position's maintenance margin. The position is then taken over at its bankruptcy price, where
 * that margin is zero. Fees are left out of both prices.
 */
export interface LiquidationPrices {
  liq: number;
  bust: number;
}

function marginModeOf(account: Account, position: Position): 'cross' | 'isolated' {
  return account.marginModes.get(position.symbol) ?? account.defaultMarginMode;
}

function mmOf(account: Account, position: Position): number {
  return maintenanceMargin(account.exchange, position.symbol, position.size * position.entryPrice);
}

function open(account: Account): Position[] {
  return [...account.positions.values()].filter((position) => position.side !== null && position.size > 0);
}

/** What backs the account's cross positions: wallet less isolated margins, plus every cross position's PnL, against their maintenance margin. */
function crossBook(account: Account, markOf: (symbol: string) => number): { collateral: number; unrealised: number; maintenance: number } {
  let collateral = wallet(account);
  let unrealised = 0;
  let maintenance = 0;
  for (const position of open(account)) {
    if (marginModeOf(account, position) === 'isolated') {
      collateral -= positionMargin(account, position);
      continue;
    }
    unrealised += unrealisedOf(position, markOf(position.symbol));
    maintenance += mmOf(account, position);
  }
  return { collateral, unrealised, maintenance };
}

/** The liquidation and bankruptcy prices of an open position (undefined when flat); 0 when no positive price liquidates it. */
export function liquidationPrices(account: Account, position: Position, markOf: (symbol: string) => number): LiquidationPrices | undefined {
  if (!position.side || position.size <= 0) return undefined;
  const mm = mmOf(account, position);
  let backing: number;
  let needed: number;
  if (marginModeOf(account, position) === 'isolated') {
    backing = positionMargin(account, position);
    needed = mm;
  } else {
    const book = crossBook(account, markOf);
    backing = book.collateral + book.unrealised - unrealisedOf(position, markOf(position.symbol));
    needed = book.maintenance;
  }
  const long = position.side === 'long';
  const tick = findMarket(position.symbol)?.tickSize ?? 0.0001;
  // On the tick, rounded toward the side that liquidates: the mark reaching the price shown always liquidates.
  const at = (amount: number) => {
    const raw = Math.max(position.entryPrice + ((long ? -1 : 1) * amount) / position.size, 0) / tick;
    return roundToStep((long ? Math.floor(raw + 1e-9) : Math.ceil(raw - 1e-9)) * tick, tick);
  };
  return { liq: at(backing - needed), bust: at(backing) };
}

function crossed(position: Position, mark: number, liq: number): boolean {
  return position.side === 'long' ? liq > 0 && mark <= liq : mark >= liq;
}

/**
 * Liquidates every position whose mark price reached its liquidation price, one at a time (a cross
 * liquidation frees the margin the others shared, so each is checked again): the symbol's open orders are
 * cancelled first (Bybit cancelType CancelAllBeforeLiq), then the position is taken over at its bankruptcy price.
 */
export function liquidateCrossed(engine: Engine, account: Account, markOf: (symbol: string) => number): void {
  for (let round = 0; round < 20; round += 1) {
    const victim = open(account).find((position) => {
      const prices = liquidationPrices(account, position, markOf);
      return prices !== undefined && crossed(position, markOf(position.symbol), prices.liq);
    });
    if (!victim) return;
    const { bust } = liquidationPrices(account, victim, markOf) as LiquidationPrices;
    for (const order of account.orders) {
      if (order.symbol === victim.symbol && order.positionIdx === victim.idx && isOpen(order)) engine.cancel(account, order, 'liquidation');
    }
    engine.takeOver(account, victim, bust);
  }
}
