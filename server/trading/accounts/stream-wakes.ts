import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { parseClientOrderId } from '../exchanges/client-order-id';
import type { AccountNews, ExchangeAdapter } from '../exchanges/types';
import type { WarmAccounts } from './warm';

/** News gathered for this long is handled in one statement (a fill often brings an order, a position and a wallet push). */
const GATHER_MS = 5;

interface Gathered {
  /** Customers whose every open execution is due (their stream caught up after a drop). */
  resynced: Set<number>;
  /** customer id, symbol: the executions of a position that shrank. */
  positions: Array<[number, string]>;
  /** order id, customer id: the execution of a leg that ended. */
  legs: Array<[number, number]>;
}

const empty = (): Gathered => ({ resynced: new Set(), positions: [], legs: [] });

function gather(into: Gathered, customerId: number, news: AccountNews): void {
  if (news.resynced) into.resynced.add(customerId);
  for (const symbol of news.symbols) into.positions.push([customerId, symbol]);
  for (const id of news.clientOrderIds) {
    const parts = parseClientOrderId(id);
    if (parts && Number(parts.customerId) === customerId) into.legs.push([Number(parts.orderId), customerId]);
  }
}

/**
 * Makes the open executions a batch of news concerns due at once; answers those this worker is running
 * (they are looked at again when their run ends).
 */
async function wake(db: Db, worker: string, batch: Gathered): Promise<number[]> {
  const [positionCustomers, positionSymbols] = [batch.positions.map((p) => p[0]), batch.positions.map((p) => p[1])];
  const [legOrders, legCustomers] = [batch.legs.map((l) => l[0]), batch.legs.map((l) => l[1])];
  const result = await db.execute<{ id: number }>(sql`
    with hit as (
      select e.id, e.claimed_by from executions e
      join orders o on o.id = e.order_id
      join strategies s on s.id = o.strategy_id
      where e.state = 'open' and (
        e.customer_id = any(${[...batch.resynced]}::int[])
        or (e.customer_id, s.symbol) in (select * from unnest(${positionCustomers}::int[], ${positionSymbols}::text[]))
        or (e.order_id, e.customer_id) in (select * from unnest(${legOrders}::int[], ${legCustomers}::int[])))
    ), woken as (
      update executions x set next_attempt_at = now(), updated_at = now()
      from hit where x.id = hit.id and hit.claimed_by is null and x.claimed_by is null
      returning x.id
    )
    select id from hit where claimed_by = ${worker}`);
  return result.rows.map((row) => Number(row.id));
}

/**
 * The engine's side of the private streams: what a warm account's stream reports (a leg filled or
 * cancelled, a position closed by hand or liquidated, the stream back after a drop) makes the executions
 * it concerns due now, so the position's check runs at once instead of at its next periodic sync.
 */
export function wakeOnAccountNews(input: {
  db: Db;
  worker: string;
  adapters: readonly ExchangeAdapter[];
  accounts: WarmAccounts;
  rechecks: Set<number>;
  wakeDispatcher: () => void;
  onError: (error: unknown) => void;
}): () => void {
  let batch = empty();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const flush = () => {
    timer = undefined;
    const due = batch;
    batch = empty();
    wake(input.db, input.worker, due)
      .then((running) => {
        for (const id of running) input.rechecks.add(id);
        input.wakeDispatcher();
      })
      .catch(input.onError);
  };

  for (const adapter of input.adapters) {
    adapter.onAccountNews((credentials, news) => {
      const customerId = input.accounts.customerOf(credentials.apiKey);
      if (stopped || customerId === undefined) return;
      gather(batch, customerId, news);
      timer ??= setTimeout(flush, GATHER_MS);
    });
  }
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
