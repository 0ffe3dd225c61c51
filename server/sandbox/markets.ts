/** The linear USDT perpetuals both fake exchanges list, with realistic steps, minimums and start prices. */
export interface MarketSpec {
  /** Exchange id, the same on Bybit and Bitget (e.g. BTCUSDT). */
  symbol: string;
  base: string;
  quote: 'USDT';
  startPrice: number;
  tickSize: number;
  qtyStep: number;
  minQty: number;
  maxQty: number;
  /** Largest market order (Bybit lotSizeFilter.maxMktOrderQty, Bitget maxMarketOrderQty). */
  maxMktQty: number;
  /** Minimum order value in USDT (Bybit minNotionalValue, Bitget minTradeUSDT). */
  minNotional: number;
  maxLeverage: number;
  /** Standard deviation of one random-walk step, as a fraction of the price. */
  volatility: number;
}

export const markets: readonly MarketSpec[] = [
  { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', startPrice: 60000, tickSize: 0.1, qtyStep: 0.001, minQty: 0.001, maxQty: 1190, maxMktQty: 119, minNotional: 5, maxLeverage: 100, volatility: 0.0008 },
  { symbol: 'ETHUSDT', base: 'ETH', quote: 'USDT', startPrice: 3000, tickSize: 0.01, qtyStep: 0.01, minQty: 0.01, maxQty: 7240, maxMktQty: 724, minNotional: 5, maxLeverage: 100, volatility: 0.001 },
  { symbol: 'SOLUSDT', base: 'SOL', quote: 'USDT', startPrice: 150, tickSize: 0.01, qtyStep: 0.1, minQty: 0.1, maxQty: 79770, maxMktQty: 7977, minNotional: 5, maxLeverage: 75, volatility: 0.0015 },
  { symbol: 'XRPUSDT', base: 'XRP', quote: 'USDT', startPrice: 0.6, tickSize: 0.0001, qtyStep: 1, minQty: 1, maxQty: 4912000, maxMktQty: 491200, minNotional: 5, maxLeverage: 75, volatility: 0.0015 },
  { symbol: 'DOGEUSDT', base: 'DOGE', quote: 'USDT', startPrice: 0.15, tickSize: 0.00001, qtyStep: 1, minQty: 1, maxQty: 29184000, maxMktQty: 2918400, minNotional: 5, maxLeverage: 75, volatility: 0.002 },
];

const bySymbol = new Map(markets.map((market) => [market.symbol, market]));

export function findMarket(symbol: string | undefined): MarketSpec | undefined {
  return symbol === undefined ? undefined : bySymbol.get(symbol);
}

/** Decimals by step: a market has a handful of steps, and every price and size in the book is rounded to one. */
const decimalsByStep = new Map<number, number>();

/** Number of decimals of a step such as 0.001 (3) or 1 (0). */
export function decimalsOf(step: number): number {
  let decimals = decimalsByStep.get(step);
  if (decimals === undefined) {
    const text = formatNumber(step);
    const dot = text.indexOf('.');
    decimals = dot < 0 ? 0 : text.length - dot - 1;
    decimalsByStep.set(step, decimals);
  }
  return decimals;
}

/**
 * Plain decimal text without exponent or float noise: 0.30000000000000004 -> "0.3". Every frame of every
 * stream goes through here, hence the integer fast path and no regular expression.
 */
export function formatNumber(value: number, maxDecimals = 10): string {
  if (!Number.isFinite(value)) return '0';
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  const text = value.toFixed(maxDecimals);
  let end = text.length;
  if (text.includes('.')) {
    while (text.charCodeAt(end - 1) === 48) end -= 1;
    if (text.charCodeAt(end - 1) === 46) end -= 1;
  }
  const trimmed = text.slice(0, end);
  return trimmed === '-0' ? '0' : trimmed;
}

/** True when value is a whole multiple of step (within float tolerance). */
export function isMultipleOf(value: number, step: number): boolean {
  const ratio = value / step;
  return Math.abs(ratio - Math.round(ratio)) < 1e-7;
}

export function roundToStep(value: number, step: number): number {
  return Number((Math.round(value / step) * step).toFixed(decimalsOf(step)));
}
