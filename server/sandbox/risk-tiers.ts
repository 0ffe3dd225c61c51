import { leverageOf } from './margin';
import type { Account, ExchangeId, PositionIdx, Side } from './types';
import { isOpen, positionKey } from './types';

/**
 * Risk limit tiers (Bybit `GET /v5/market/risk-limit`, Bitget `GET /api/v2/mix/market/query-position-lever`):
 * the larger a position's value, the lower the highest leverage allowed and the higher the maintenance margin
 * rate. A tier covers position values up to `maxValue` USDT (Bybit riskLimitValue, Bitget endUnit).
 * `mmDeduction` is Bybit's: maintenance margin = value × mmr − mmDeduction, continuous across tiers.
 */
export interface RiskTier {
  level: number;
  maxValue: number;
  maxLeverage: number;
  /** Maintenance margin rate (Bybit maintenanceMargin, Bitget keepMarginRate). */
  mmr: number;
  /** Initial margin rate at the tier's highest leverage (Bybit initialMargin). */
  imr: number;
  mmDeduction: number;
}

type TierRow = [maxValue: number, maxLeverage: number, mmr: number];

function tiers(rows: TierRow[]): RiskTier[] {
  let deduction = 0;
  return rows.map(([maxValue, maxLeverage, mmr], index) => {
    const previous = rows[index - 1];
    if (previous) deduction += previous[0] * (mmr - previous[2]);
    return { level: index + 1, maxValue, maxLeverage, mmr, imr: Number((1 / maxLeverage).toFixed(6)), mmDeduction: Number(deduction.toFixed(4)) };
  });
}

/**
 * The shape of the real tables (a handful of tiers each, leverage halving as the value grows). BTCUSDT on Bybit:
 * 100x up to 2 M USDT, then 50x to 10 M, so 100x on a 7.2 M position is refused (110013, LIVE-FIDELITY D8).
 */
const bybitTiers: Record<string, RiskTier[]> = {
  BTCUSDT: tiers([[2_000_000, 100, 0.005], [10_000_000, 50, 0.01], [20_000_000, 25, 0.02], [40_000_000, 12.5, 0.04], [80_000_000, 5, 0.1]]),
  ETHUSDT: tiers([[1_000_000, 100, 0.005], [5_000_000, 50, 0.01], [50_000_000, 10, 0.05]]),
  SOLUSDT: tiers([[200_000, 75, 0.0066], [1_000_000, 50, 0.01], [30_000_000, 10, 0.05]]),
  XRPUSDT: tiers([[200_000, 75, 0.0066], [1_000_000, 50, 0.01], [10_000_000, 10, 0.05]]),
  DOGEUSDT: tiers([[200_000, 75, 0.0066], [1_000_000, 50, 0.01], [10_000_000, 10, 0.05]]),
};

/** Bitget's BTCUSDT table is finer at the bottom (Bitget starts its first tier at 150,000 USDT). */
const bitgetTiers: Record<string, RiskTier[]> = {
  ...bybitTiers,
  BTCUSDT: tiers([[150_000, 100, 0.004], [900_000, 75, 0.005], [2_400_000, 50, 0.01], [6_000_000, 25, 0.02], [12_000_000, 20, 0.025], [80_000_000, 10, 0.05]]),
};

export function tiersOf(exchange: ExchangeId, symbol: string): RiskTier[] {
  const table = (exchange === 'bybit' ? bybitTiers : bitgetTiers)[symbol];
  if (!table) throw new Error(`No risk tiers for ${symbol}`);
  return table;
}

/** The tier a position of this value falls in (values beyond the last tier: the last). */
export function tierFor(exchange: ExchangeId, symbol: string, value: number): RiskTier {
  const table = tiersOf(exchange, symbol);
  return table.find((tier) => value <= tier.maxValue) ?? (table[table.length - 1] as RiskTier);
}

/** The largest position value allowed at this leverage: the highest tier whose leverage reaches it (0: none). */
export function maxValueAt(exchange: ExchangeId, symbol: string, leverage: number): number {
  const allowed = tiersOf(exchange, symbol).filter((tier) => tier.maxLeverage >= leverage - 1e-9);
  return allowed.length ? (allowed[allowed.length - 1] as RiskTier).maxValue : 0;
}

/** Maintenance margin of a position of this value: Bybit value × mmr − mmDeduction, Bitget value × keepMarginRate. */
export function maintenanceMargin(exchange: ExchangeId, symbol: string, value: number): number {
  const tier = tierFor(exchange, symbol, value);
  return exchange === 'bybit' ? Math.max(value * tier.mmr - tier.mmDeduction, 0) : value * tier.mmr;
}

/**
 * Whether an opening order fits the risk limit at the slot's leverage: the position's value after it (position,
 * the slot's resting opening orders and this one, at `price`) must stay within the largest tier that leverage
 * allows. Answers undefined when it fits, else the highest leverage of the tier that value needs (Bybit 110090
 * "adjust your leverage to {{leverage}} or below").
 */
export function riskLimitBreach(account: Account, request: { symbol: string; positionIdx: PositionIdx; side: Side; qty: number }, price: number): number | undefined {
  const side = request.side === 'buy' ? 'long' : 'short';
  const position = account.positions.get(positionKey(request.symbol, request.positionIdx));
  const held = position?.side === side ? position.size : 0;
  const resting = account.orders
    .filter((order) => order.symbol === request.symbol && order.positionIdx === request.positionIdx && order.side === request.side && !order.reduceOnly && order.kind === 'normal' && isOpen(order))
    .reduce((sum, order) => sum + order.qty - order.filledQty, 0);
  const value = (held + resting + request.qty) * price;
  const leverage = leverageOf(account, request.symbol, request.positionIdx, side);
  if (value <= maxValueAt(account.exchange, request.symbol, leverage) + 1e-9) return undefined;
  return tierFor(account.exchange, request.symbol, value).maxLeverage;
}

/** Whether `leverage` is allowed for the slot's current position value (Bybit 110013 on set-leverage); answers the tier's maximum when not. */
export function leverageAboveTier(account: Account, symbol: string, idx: PositionIdx, leverage: number): number | undefined {
  const position = account.positions.get(positionKey(symbol, idx));
  if (!position?.side) return undefined;
  const tier = tierFor(account.exchange, symbol, position.size * position.entryPrice);
  return leverage > tier.maxLeverage + 1e-9 ? tier.maxLeverage : undefined;
}
