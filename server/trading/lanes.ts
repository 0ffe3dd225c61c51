import { sql, type SQL } from 'drizzle-orm';
import { Exchange } from '../../contract/enums';
import type { ExchangeId } from './exchanges/types';

/**
 * Dispatcher lanes: each exchange has its own slots, so entries waiting for one exchange's request
 * budget never hold the slots another exchange's customers need (a head-of-line block).
 */
export const LANES: readonly ExchangeId[] = ['bybit', 'bitget'];

/** The customers' platform type (`Exchange`) of each lane's exchange. */
export const lanePlatform: Record<ExchangeId, number> = { bybit: Exchange.Bybit, bitget: Exchange.Bitget };

/** A customer on neither exchange (disconnected since queuing) goes with Bitget and fails fast there. */
export function laneOf(platformType: number | null): ExchangeId {
  return platformType === Exchange.Bybit ? 'bybit' : 'bitget';
}

/** SQL condition on an execution aliased `e`: its customer is in this lane. */
export function laneFilter(lane: ExchangeId): SQL {
  const onBybit = sql`exists (select 1 from customers c where c.id = e.customer_id and c.platform_type = ${Exchange.Bybit})`;
  return lane === 'bybit' ? onBybit : sql`not ${onBybit}`;
}
