import type { Exchange } from 'ccxt';
import { bitgetOf } from './bitget-orders';
import { refusedKey } from './key-check';
import { ExchangeFailure, type KeyCheck, type PositionModeName } from './types';

interface AccountInfo {
  ips?: string | string[];
  authorities?: string[];
  permissions?: string[];
}

export interface BitgetKeyCheckDeps {
  /** Runs ccxt work with the key being checked. */
  call: <T>(work: (ex: Exchange) => Promise<T>) => Promise<T>;
  /** The futures account's position mode (a signed futures read: GET /api/v2/mix/account/account). */
  positionMode: () => Promise<PositionModeName>;
  /** A trade request that changes nothing (cancelling an order that does not exist). */
  probeTrade: () => Promise<void>;
}

/**
 * How the Bitget key check decides (LIVE-FIDELITY B13):
 * 1. GET /api/v2/spot/account/info (1 / s) answers the key's permissions and bound IPs. A refusal of the
 *    key itself (unknown key, bad signature or passphrase, IP not allowed) makes it invalid.
 * 2. A permission refusal there only means the key has no spot read permission, which a futures-only
 *    key legitimately lacks. The futures account is read instead (GET /api/v2/mix/account/accounts):
 *    if that works the key is valid. Trading is probed by cancelling an order that does not exist
 *    ("not found" = the key may trade, a permission refusal = it may not). Withdrawal and IP binding
 *    cannot be read without spot read: they are reported false and listed as `unverified`.
 * The position mode comes from the futures single-account read in both cases.
 */
export async function checkBitgetKey(deps: BitgetKeyCheckDeps): Promise<KeyCheck> {
  let info: AccountInfo;
  try {
    const response = (await deps.call((ex) => bitgetOf(ex).privateSpotGetV2SpotAccountInfo())) as { data?: AccountInfo };
    info = response.data ?? {};
  } catch (error) {
    if (error instanceof ExchangeFailure && error.code === 'permission') return checkFuturesOnlyKey(deps);
    return refusedKey(error);
  }
  const authorities = [...(info.authorities ?? []), ...(info.permissions ?? [])].map((a) => a.toLowerCase());
  // Bitget permission codes: coow/cpow = contract orders/positions read-write, wwow = withdraw.
  const canTrade = authorities.includes('coow');
  const canWithdraw = authorities.some((a) => a === 'wwow' || a.includes('withdraw'));
  const ips = (Array.isArray(info.ips) ? info.ips : (info.ips ?? '').split(',')).map((ip) => ip.trim()).filter((ip) => ip && ip !== '*');
  const positionMode = await deps.positionMode().catch(() => undefined);
  return { valid: true, canTrade, canWithdraw, ipBound: ips.length > 0, positionMode, error: undefined };
}

async function checkFuturesOnlyKey(deps: BitgetKeyCheckDeps): Promise<KeyCheck> {
  let positionMode: PositionModeName;
  try {
    positionMode = await deps.positionMode();
  } catch (error) {
    return refusedKey(error);
  }
  let canTrade = true;
  try {
    await deps.probeTrade();
  } catch (error) {
    if (!(error instanceof ExchangeFailure) || error.code !== 'permission') throw error;
    canTrade = false;
  }
  return { valid: true, canTrade, canWithdraw: false, ipBound: false, positionMode, error: undefined, unverified: ['canWithdraw', 'ipBound'] };
}
