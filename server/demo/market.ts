import type { MarketInfo } from '../trading/exchanges/types';
import { roundToStep } from '../trading/sizing';
import { DAY_MS } from '../lib/clock';
import { markets, type MarketSpec } from '../sandbox/index';
import { Random, deriveSeed } from '../sandbox/random';

/** The sandbox's market of `symbol` as the adapters describe it (the demo trades the sandbox's symbols). */
export function demoMarket(symbol: string): MarketInfo {
  const spec = specOf(symbol);
  return {
    symbol: spec.symbol,
    ccxtSymbol: `${spec.base}/USDT:USDT`,
    minQty: spec.minQty,
    qtyStep: spec.qtyStep,
    tickSize: spec.tickSize,
    minNotional: spec.minNotional,
    maxLeverage: spec.maxLeverage,
    maxMarketQty: spec.maxMktQty,
  };
}

/** Strategies may only be created on symbols the exchanges list: here, the sandbox's. */
export const demoSymbolCheck = async (symbol: string): Promise<boolean> => markets.some((market) => market.symbol === symbol);

function specOf(symbol: string): MarketSpec {
  const spec = markets.find((market) => market.symbol === symbol);
  if (!spec) throw new Error(`The sandbox has no market ${symbol}`);
  return spec;
}

/** Daily closes of a seeded random walk (about 2.5% a day) from the sandbox's start price, from `from` on. */
export class DemoPrices {
  private readonly paths = new Map<string, { closes: number[]; random: Random }>();

  constructor(
    private readonly from: Date,
    private readonly seed: number,
  ) {}

  /** The price of `symbol` at `at`, on its tick grid (between two daily closes). */
  at(symbol: string, at: Date): number {
    const spec = specOf(symbol);
    const days = Math.max(0, (at.getTime() - this.from.getTime()) / DAY_MS);
    const path = this.path(spec, Math.ceil(days) + 1);
    const day = Math.floor(days);
    const share = days - day;
    return roundToStep(path[day]! * (1 - share) + path[day + 1]! * share, spec.tickSize);
  }

  /** Each symbol walks on its own stream, extended in order: the same closes whatever is asked first. */
  private path(spec: MarketSpec, length: number): number[] {
    let path = this.paths.get(spec.symbol);
    if (!path) {
      path = { closes: [spec.startPrice], random: new Random(deriveSeed(this.seed, spec.symbol)) };
      this.paths.set(spec.symbol, path);
    }
    while (path.closes.length <= length) path.closes.push(path.closes.at(-1)! * Math.exp(0.025 * path.random.gaussian()));
    return path.closes;
  }
}
