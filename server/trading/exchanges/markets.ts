import type { Market } from 'ccxt';
import { decimalsOf, roundToStep } from '../sizing';
import type { MarketInfo } from './types';

/** The USDT-margined linear perpetuals of a ccxt market list, keyed by exchange id (BTCUSDT). */
export function linearUsdtMarkets(markets: Record<string, Market>): Map<string, MarketInfo> {
  const result = new Map<string, MarketInfo>();
  for (const market of Object.values(markets)) {
    if (!market || !market.swap || !market.linear || market.settle !== 'USDT' || market.active === false) continue;
    if (!market.id || !market.symbol) continue;
    result.set(market.id, {
      symbol: market.id,
      ccxtSymbol: market.symbol,
      minQty: market.limits.amount?.min ?? market.precision.amount ?? 0,
      qtyStep: market.precision.amount ?? 0,
      tickSize: market.precision.price ?? 0,
      minNotional: market.limits.cost?.min ?? 0,
      maxLeverage: market.limits.leverage?.max ?? 1,
      maxMarketQty: maxMarketQtyOf(market.info as Record<string, unknown> | undefined),
    });
  }
  return result;
}

/** Bybit `lotSizeFilter.maxMktOrderQty`, Bitget `maxMarketOrderQty` (LIVE-FIDELITY D8); Infinity when absent or 0. */
function maxMarketQtyOf(info: Record<string, unknown> | undefined): number {
  const raw = (info?.lotSizeFilter as Record<string, unknown> | undefined)?.maxMktOrderQty ?? info?.maxMarketOrderQty;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : Infinity;
}

/** Rounds a price to the market's tick size. */
export function roundToTick(price: number, tickSize: number): number {
  return tickSize > 0 ? roundToStep(price, tickSize) : price;
}

/** Rounds a quantity down to the market's step (never above what was asked). */
export function floorToStep(quantity: number, step: number): number {
  if (!(step > 0)) return quantity;
  return Number((Math.floor(quantity / step + 1e-9) * step).toFixed(decimalsOf(step)));
}
