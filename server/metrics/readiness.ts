import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import type { ExchangeId } from '../trading/exchanges/types';

/** A public, unsigned request per exchange (its server time): what /readyz asks to know the exchange answers. */
function timeUrls(exchanges: Deps['exchanges']): Record<ExchangeId, string> {
  if (exchanges.mode === 'sandbox') {
    const base = exchanges.sandboxUrl ?? '';
    return { bybit: `${base}/v5/market/time`, bitget: `${base}/api/v2/public/time` };
  }
  const bybit = exchanges.mode === 'testnet' ? 'https://api-testnet.bybit.com' : 'https://api.bybit.com';
  return { bybit: `${bybit}/v5/market/time`, bitget: 'https://api.bitget.com/api/v2/public/time' };
}

const CHECK_TIMEOUT_MS = 2_000;

async function reachable(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch {
    return false;
  }
}

export interface Readiness {
  ready: boolean;
  database: boolean;
  exchanges: Record<ExchangeId, boolean>;
}

/** The database answers a query and each exchange (the sandbox in sandbox mode) its server time, each within 2 s. */
export async function readiness(deps: Pick<Deps, 'db' | 'exchanges'>): Promise<Readiness> {
  const urls = timeUrls(deps.exchanges);
  const exchangeUp = (url: string) =>
    reachable(async () => {
      const answer = await deps.exchanges.fetch(url, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
      if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
    });
  const [database, bybit, bitget] = await Promise.all([
    reachable(() => Promise.race([deps.db.execute(sql`select 1`), timeoutAfter(CHECK_TIMEOUT_MS)])),
    exchangeUp(urls.bybit),
    exchangeUp(urls.bitget),
  ]);
  return { ready: database && bybit && bitget, database, exchanges: { bybit, bitget } };
}

function timeoutAfter(ms: number): Promise<never> {
  return new Promise((_resolve, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref());
}
