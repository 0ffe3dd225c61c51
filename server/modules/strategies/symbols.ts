import { AppError } from '../../http/errors';
import type { ExchangeAccess } from '../../trading/exchanges/for-deps';
import type { ExchangeAdapter, MarketInfo } from '../../trading/exchanges/types';

/** Whether a (normalised) symbol is traded on at least one enabled exchange. */
export type SymbolCheck = (symbol: string) => Promise<boolean>;

/**
 * Checks through the adapters' market lists (loaded once per process and cached by the adapters).
 * An exchange whose markets cannot be loaded is skipped; if none can be loaded the check answers
 * 503 instead of accepting a symbol nobody could verify.
 */
export function symbolCheckFrom(adapters: () => readonly ExchangeAdapter[]): SymbolCheck {
  return async (symbol) => {
    const results = await Promise.allSettled(adapters().map((adapter) => adapter.loadMarkets()));
    const loaded = results.flatMap((r): Array<Map<string, MarketInfo>> => (r.status === 'fulfilled' ? [r.value] : []));
    if (loaded.length === 0) throw new AppError(503, 'The exchanges cannot be reached to check the symbol. Please try again in a minute.');
    return loaded.some((markets) => markets.has(symbol));
  };
}

/** The app's Bybit and Bitget adapters (sandbox or live, per EXCHANGE_MODE), looked up at call time. */
export function exchangeSymbolCheck(deps: { exchanges: ExchangeAccess }): SymbolCheck {
  return symbolCheckFrom(() => Object.values(deps.exchanges.adapters));
}
