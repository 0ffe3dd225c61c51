import { AmountType } from '../../contract/enums';
import type { MarketInfo, PositionSide, RiskTier } from './exchanges/types';

/** Steps seen (a market has a few): every entry rounds its quantity and prices by them. */
const decimalsByStep = new Map<number, number>();

/** Decimal places of a step such as 0.001 (3) or 1 (0); exact for steps written in decimal. */
export function decimalsOf(step: number): number {
  const known = decimalsByStep.get(step);
  if (known !== undefined) return known;
  const text = step.toExponential();
  const [mantissa = '', exponent = '0'] = text.split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  const decimals = Math.max(0, fraction - Number(exponent));
  if (decimalsByStep.size < 1_000) decimalsByStep.set(step, decimals);
  return decimals;
}

/** Rounds down to a multiple of `step`, without binary floating-point drift (0.3/0.1 stays 3 steps). */
export function roundDownToStep(value: number, step: number): number {
  const decimals = decimalsOf(step);
  const scale = 10 ** decimals;
  const units = Math.round(step * scale);
  const scaled = Math.floor(Math.round(value * scale * 1e6) / 1e6);
  return Number(((scaled - (scaled % units)) / scale).toFixed(decimals));
}

/** Rounds to the nearest multiple of `step` (prices to the tick size). */
export function roundToStep(value: number, step: number): number {
  const decimals = decimalsOf(step);
  return Number((Math.round(value / step) * step).toFixed(decimals));
}

export type SizingResult = { ok: true; quantity: number } | { ok: false; reason: string };

/**
 * The largest quantity the exchange takes at `price` and `leverage` (LIVE-FIDELITY D8): one market
 * order at most the instrument's maximum, and a position value at most the highest risk tier that still
 * allows this leverage (0 when no tier does). Without tiers (not published), only the order maximum.
 */
export function largestQuantity(market: MarketInfo, tiers: readonly RiskTier[], price: number, leverage: number): number {
  if (tiers.length === 0) return market.maxMarketQty;
  const allowed = tiers.filter((tier) => tier.maxLeverage >= leverage);
  const maxValue = allowed.length === 0 ? 0 : Math.max(...allowed.map((tier) => tier.maxValue));
  return Math.min(market.maxMarketQty, maxValue / price);
}

/**
 * ARCHITECTURE 6: `$` is margin in USDT, so quantity = amount x leverage / price rounded down to the
 * market's step; `Quantity` is a base quantity rounded down to the step. Capped at the exchange's limits
 * (`largestQuantity`). Below the market minimum the entry is skipped with a reason staff can read.
 */
export function sizeEntry(input: { investType: number; investAmount: number; leverage: number; price: number; market: MarketInfo; tiers?: readonly RiskTier[] }): SizingResult {
  const { investType, investAmount, leverage, price, market } = input;
  if (!(investAmount > 0)) return { ok: false, reason: 'The invest amount of this group is not positive' };
  const wanted = investType === AmountType.Dollar ? (investAmount * leverage) / price : investAmount;
  const largest = largestQuantity(market, input.tiers ?? [], price, leverage);
  const quantity = roundDownToStep(Math.min(wanted, largest), market.qtyStep);
  if (largest < market.minQty) {
    return { ok: false, reason: `Leverage ${leverage} is above what the exchange allows for any position on ${market.symbol}` };
  }
  if (quantity < market.minQty || quantity <= 0) {
    return {
      ok: false,
      reason: `Order size ${quantity} ${market.symbol} is below the exchange minimum of ${market.minQty} (invest ${investAmount}${investType === AmountType.Dollar ? ' USDT' : ''}, leverage ${leverage}, price ${price})`,
    };
  }
  if (market.minNotional > 0 && quantity * price < market.minNotional) {
    return {
      ok: false,
      reason: `Order value ${(quantity * price).toFixed(2)} USDT is below the exchange minimum of ${market.minNotional} USDT for ${market.symbol}`,
    };
  }
  return { ok: true, quantity };
}

/**
 * Where an isolated position opened at `entryPrice` is liquidated (LIVE-FIDELITY D7): its margin, value /
 * leverage, falls to the maintenance margin of its tier. Cross margin adds the account's free balance, so
 * this is the nearest the liquidation can be. Fees left out; null without tiers.
 */
export function nearestLiquidation(side: PositionSide, entryPrice: number, quantity: number, leverage: number, tiers: readonly RiskTier[]): number | null {
  const tier = tiers.find((row) => row.maxValue >= entryPrice * quantity) ?? tiers.at(-1);
  if (!tier) return null;
  const move = 1 / leverage - tier.maintenanceRate;
  return entryPrice * (side === 'long' ? 1 - move : 1 + move);
}

/** A distance from the entry price: `%` of the price or `$` in quote currency. */
export function distance(entryPrice: number, type: number, amount: number): number {
  return type === AmountType.Percent ? (entryPrice * amount) / 100 : amount;
}

/** Price `d` away from entry in the profit direction (TP, trailing activation) or the loss direction (SL). */
export function priceAway(entryPrice: number, side: PositionSide, d: number, direction: 'profit' | 'loss', tickSize: number): number {
  const sign = (side === 'long') === (direction === 'profit') ? 1 : -1;
  return roundToStep(entryPrice + sign * d, tickSize);
}

/**
 * Splits a filled quantity into TP leg sizes. Full mode: one leg of 100%. Partial: TP1 and TP2 their
 * volumes, TP3 the remainder, so the legs always add up to the position. A leg below the market minimum
 * is merged into the next one.
 */
export function splitTakeProfit(filledQty: number, mode: 'full' | 'partial', volumes: [number, number], market: MarketInfo): number[] {
  if (mode === 'full') return [filledQty];
  const first = roundDownToStep((filledQty * volumes[0]) / 100, market.qtyStep);
  const second = roundDownToStep((filledQty * volumes[1]) / 100, market.qtyStep);
  const third = roundDownToStep(filledQty - first - second, market.qtyStep);
  const legs = [first, second, third];
  for (let i = 0; i < legs.length - 1; i += 1) {
    if (legs[i]! > 0 && legs[i]! < market.minQty) {
      legs[i + 1] = roundDownToStep(legs[i + 1]! + legs[i]!, market.qtyStep);
      legs[i] = 0;
    }
  }
  if (legs[2]! > 0 && legs[2]! < market.minQty) {
    const last = legs.findLastIndex((value, index) => index < 2 && value > 0);
    if (last >= 0) legs[last] = roundDownToStep(legs[last]! + legs[2]!, market.qtyStep);
    legs[2] = 0;
  }
  return legs;
}
