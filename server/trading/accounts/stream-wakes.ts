import type { Db } from '../../db/client';
import { parseClientOrderId } from '../exchanges/client-order-id';
import { wakeExecutions, type DueNews } from '../execution-state/queue';
import type { AccountNews, ExchangeAdapter } from '../exchanges/types';
import type { WarmAccounts } from './warm';

/** News gathered for this long is handled in one statement (a fill often brings an order, a position and a wallet push). */
const GATHER_MS = 5;

const empty = (): DueNews => ({ resynced: new Set(), positions: [], legs: [] });

function gather(into: DueNews, customerId: number, news: AccountNews): void {
  if (news.resynced) into.resynced.add(customerId);
  for (const symbol of news.symbols) into.positions.push([customerId, symbol]);
  for (const id of news.clientOrderIds) {
    const parts = parseClientOrderId(id);
    if (parts && Number(parts.customerId) === customerId) into.legs.push([Number(parts.orderId), customerId]);
  }
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
  /** An account whose stream came back after a drop (its whole-account check is due). */
  onResynced?: (customerId: number) => void;
  onError: (error: unknown) => void;
}): () => void {
  let batch = empty();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const flush = () => {
    timer = undefined;
    const due = batch;
    batch = empty();
    wakeExecutions(input.db, input.worker, due)
      .then(({ woken, running }) => {
        for (const id of running) input.rechecks.add(id);
        if (woken > 0) input.wakeDispatcher();
      })
      .catch(input.onError);
  };

  for (const adapter of input.adapters) {
    adapter.onAccountNews((credentials, news) => {
      const customerId = input.accounts.customerOf(credentials.apiKey);
      if (stopped || customerId === undefined) return;
      if (news.resynced) input.onResynced?.(customerId);
      gather(batch, customerId, news);
      timer ??= setTimeout(flush, GATHER_MS);
    });
  }
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
