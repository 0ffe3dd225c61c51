import { setTimeout as sleep } from 'node:timers/promises';
import { decryptCredentials } from '../../lib/credentials';
import type { ExecutionContext } from '../context';
import type { Credentials, ExchangeAdapter, ExchangeId, MarketInfo, PlacedOrder, PositionModeName, PositionSide } from '../exchanges/types';
import { exchangeIdOf, type TradingRuntime } from '../runtime';
import { modeName } from '../settings-cache';
import { FinalFailure } from './errors';
import { EntryDirection } from '../../../contract/enums';

/** One customer's connection for one execution: adapter, decrypted key, market and position terms. */
export interface Session {
  adapter: ExchangeAdapter;
  credentials: Credentials;
  exchange: ExchangeId;
  symbol: string;
  side: PositionSide;
  mode: PositionModeName;
  market: MarketInfo;
}

/** The part of a session the protection levels are computed from. */
export type PositionTerms = Pick<Session, 'side' | 'market'>;

export async function openSession(rt: TradingRuntime, ctx: ExecutionContext): Promise<Session> {
  const exchange = exchangeIdOf(ctx.platformType);
  const adapter = rt.adapters(ctx.platformType);
  if (!exchange || !adapter) throw new FinalFailure(`The customer's exchange (platform ${ctx.platformType}) is not supported for trading`);
  const credentials = rt.accounts?.credentials(ctx.customerId) ?? decryptCredentials(rt.secrets, { accountId: ctx.accountId, ...ctx.credentials });
  if (!credentials) throw new FinalFailure('The customer has no exchange API key stored: ask them to reconnect their exchange');
  const market = await adapter.market(ctx.strategy.symbol);
  return {
    adapter,
    credentials,
    exchange,
    symbol: ctx.strategy.symbol,
    side: ctx.side === EntryDirection.Long ? 'long' : 'short',
    mode: modeName(ctx.strategy.positionMode),
    market,
  };
}

/** How long a market order's fill is awaited on the account's private stream before it is looked up over REST. */
export const STREAM_FILL_WAIT_MS = 2_000;

/**
 * Market orders report their fill a moment later: the account's private stream pushes it (awaited first,
 * when the stream is up), else the order is looked up until it settles.
 */
export async function settle(session: Session, placed: PlacedOrder): Promise<PlacedOrder> {
  const pushed = await session.adapter.settledOrder(session.credentials, placed.clientOrderId, STREAM_FILL_WAIT_MS);
  if (pushed) return pushed;
  let current = placed;
  for (let round = 0; round < 6; round += 1) {
    if (current.status !== 'open' && current.status !== 'unknown' && (current.filledQty === 0 || current.avgPrice !== undefined)) return current;
    if (round > 0) await sleep(100 * round);
    const found = await session.adapter.fetchOrderByClientId(session.credentials, session.symbol, placed.clientOrderId);
    if (found) current = found;
  }
  return current;
}

/** PnL of closing `quantity` at `exitPrice` of a position entered at `entryPrice`. */
export function pnlOf(side: PositionSide, entryPrice: number, exitPrice: number, quantity: number): number {
  const sign = side === 'long' ? 1 : -1;
  return Number((sign * (exitPrice - entryPrice) * quantity).toFixed(8));
}
