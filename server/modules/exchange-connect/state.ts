import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config';
import { loadMasterKey } from '../../lib/secrets';
import type { ExchangeId } from '../../trading/exchanges/types';

/** How long the customer has between "Connect Exchange" and coming back from the exchange. */
export const STATE_TTL_MS = 10 * 60 * 1000;

export interface ConnectState {
  tempAccountId: string;
  exchange: ExchangeId;
  expiresAt: number;
}

const keys = new WeakMap<Config, Buffer>();

/** HMAC key derived from the master key, so states survive restarts and work across processes. */
function stateKey(config: Config): Buffer {
  let key = keys.get(config);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', loadMasterKey(config.masterKey, config.dataDir), Buffer.alloc(0), 'oauth-connect-state-v1', 32));
    keys.set(config, key);
  }
  return key;
}

const mac = (config: Config, payload: string) => createHmac('sha256', stateKey(config)).update(payload).digest('base64url');

export function signState(config: Config, state: ConnectState): string {
  const payload = Buffer.from(JSON.stringify({ t: state.tempAccountId, x: state.exchange, e: state.expiresAt, n: randomBytes(12).toString('base64url') })).toString('base64url');
  return `${payload}.${mac(config, payload)}`;
}

/** The state's content when it is ours, unaltered and not expired; otherwise null. */
export function verifyState(config: Config, raw: string, now: Date): ConnectState | null {
  const [payload, signature, extra] = raw.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(config, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let parsed: { t?: unknown; x?: unknown; e?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    return null;
  }
  if (typeof parsed.t !== 'string' || (parsed.x !== 'bybit' && parsed.x !== 'bitget') || typeof parsed.e !== 'number') return null;
  if (parsed.e <= now.getTime()) return null;
  return { tempAccountId: parsed.t, exchange: parsed.x, expiresAt: parsed.e };
}
