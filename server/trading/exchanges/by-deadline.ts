import { bannedFailure, type AddressBans } from './address-ban';
import { exchangeNames } from './errors';
import { ExchangeFailure, type ExchangeId } from './types';

/**
 * `value` (a read shared by several callers), unless `deadline` (epoch ms) passes first, or a ban of the
 * address outlasts it: then a final `deadline` failure at once (the read itself goes on for its other
 * callers). `what` completes "<Exchange> ... before the deadline of the order they were for".
 */
export function byDeadline<T>(value: Promise<T>, bans: AddressBans, exchange: ExchangeId, egress: string, deadline: number, what: string): Promise<T> {
  const ban = bans.current(exchange, egress);
  if (ban && ban.until >= deadline) return Promise.reject(bannedFailure(ban));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ExchangeFailure('deadline', false, `${exchangeNames[exchange]} ${what} before the deadline of the order they were for`)),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([value, late]).finally(() => clearTimeout(timer));
}
