import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** Accounts are shared out in this many slices (customer id modulo the count). */
export const ACCOUNT_SLICES = 64;
export const sliceOf = (customerId: number) => customerId % ACCOUNT_SLICES;
/** How often a started worker runs a round (heartbeat, renewal, rebalancing) for leases of `leaseMs`. */
export const leaseRoundMs = (leaseMs: number) => Math.max(200, Math.floor(leaseMs / 3));

/**
 * The slices of customer accounts this worker owns, through PostgreSQL leases: every live worker
 * (heartbeat in `trading_workers`) takes its fair share (slices / live workers, rounded up), renews
 * its leases, gives back what is above its share when another worker joins, and takes over slices
 * whose lease ran out (a dead worker's). The owner keeps those accounts warm and claims their executions.
 */
export interface AccountLeases {
  owned(): ReadonlySet<number>;
  owns(customerId: number): boolean;
  /** One round of heartbeat, renewal and rebalancing (also run every lease / 3 once started). */
  rebalance(): Promise<void>;
  /** Called after a rebalance that changed the owned slices. */
  onChange(listener: (owned: ReadonlySet<number>) => void): void;
  /**
   * Called after every round with the live workers sending Bybit orders over WebSocket order entry from
   * this worker's address, itself included (0 when it does not), and whether it was this worker's first round.
   */
  onOrderEntryPeers(listener: (peers: number, firstRound: boolean) => void): void;
  start(): Promise<void>;
  /** Gives every slice back at once (a clean stop: others take them at their next round). */
  stop(): Promise<void>;
}

/**
 * `orderEntryEgress`: the address this worker sends Bybit orders over WebSocket order entry from,
 * written with its heartbeat (undefined: it does not).
 */
export function createAccountLeases(db: Db, worker: string, leaseMs: number, onError: (error: unknown) => void, orderEntryEgress?: string): AccountLeases {
  let owned = new Set<number>();
  let peersCounted = false;
  const listeners: Array<(owned: ReadonlySet<number>) => void> = [];
  const peerListeners: Array<(peers: number, firstRound: boolean) => void> = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const lease = sql`make_interval(secs => ${leaseMs / 1000})`;

  async function round(): Promise<void> {
    const next = await db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into trading_workers (worker, heartbeat_at, order_entry_egress) values (${worker}, now(), ${orderEntryEgress ?? null})
        on conflict (worker) do update set heartbeat_at = now(), order_entry_egress = excluded.order_entry_egress`);
      await tx.execute(sql`delete from trading_workers where heartbeat_at < now() - ${lease} * 10`);
      await tx.execute(sql`insert into account_slices (slice) select generate_series(0, ${ACCOUNT_SLICES - 1}) on conflict do nothing`);
      const live = await tx.execute<{ n: number }>(sql`select count(*)::int as n from trading_workers where heartbeat_at > now() - ${lease}`);
      const fair = Math.ceil(ACCOUNT_SLICES / Math.max(1, Number(live.rows[0]!.n)));
      const mine = await tx.execute<{ slice: number }>(sql`
        update account_slices set lease_until = now() + ${lease} where owner = ${worker} returning slice`);
      const slices = mine.rows.map((row) => Number(row.slice)).sort((a, b) => a - b);
      if (slices.length > fair) {
        const excess = slices.slice(fair);
        await tx.execute(sql`update account_slices set owner = null, lease_until = null where owner = ${worker} and slice in ${excess}`);
        return new Set(slices.slice(0, fair));
      }
      if (slices.length < fair) {
        const taken = await tx.execute<{ slice: number }>(sql`
          update account_slices set owner = ${worker}, lease_until = now() + ${lease}
          where slice in (select slice from account_slices where owner is null or lease_until < now() order by slice limit ${fair - slices.length} for update skip locked)
          returning slice`);
        return new Set([...slices, ...taken.rows.map((row) => Number(row.slice))]);
      }
      return new Set(slices);
    });
    const changed = next.size !== owned.size || [...next].some((slice) => !owned.has(slice));
    owned = next;
    if (changed) for (const listener of listeners) listener(owned);
    if (peerListeners.length > 0) {
      const peers = orderEntryEgress === undefined ? 0 : await orderEntryPeers(orderEntryEgress);
      const firstRound = !peersCounted;
      peersCounted = true;
      for (const listener of peerListeners) listener(peers, firstRound);
    }
  }

  /**
   * Counted after the round's heartbeat committed: of two workers starting together, the one counting
   * second sees the other (each counts after its own heartbeat is visible), so at least one of them knows.
   */
  async function orderEntryPeers(egress: string): Promise<number> {
    const result = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from trading_workers where order_entry_egress = ${egress} and heartbeat_at > now() - ${lease}`);
    return Number(result.rows[0]!.n);
  }

  const rebalance = () => (running ??= round().finally(() => (running = undefined)));

  return {
    owned: () => owned,
    owns: (customerId) => owned.has(sliceOf(customerId)),
    rebalance,
    onChange: (listener) => listeners.push(listener),
    onOrderEntryPeers: (listener) => peerListeners.push(listener),
    async start() {
      await rebalance();
      timer = setInterval(() => rebalance().catch(onError), leaseRoundMs(leaseMs));
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
      await db.execute(sql`update account_slices set owner = null, lease_until = null where owner = ${worker}`);
      await db.execute(sql`delete from trading_workers where worker = ${worker}`);
      owned = new Set();
    },
  };
}
