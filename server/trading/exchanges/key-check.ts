import { ExchangeFailure, type KeyCheck } from './types';

/**
 * The answer of checkKey when the exchange refuses the key itself. Temporary failures (network,
 * rate limit) are thrown instead: they say nothing about the key.
 */
export function refusedKey(error: unknown): KeyCheck {
  if (!(error instanceof ExchangeFailure) || error.retryable) throw error;
  return {
    valid: false,
    canTrade: false,
    canWithdraw: false,
    // An IP refusal means the key is bound to addresses other than ours.
    ipBound: error.code === 'ip_not_allowed',
    positionMode: undefined,
    error: error.staffMessage,
  };
}
