import { ExchangeFailure } from '../exchanges/types';

/** A failure that must not be retried, with the sentence staff read in the audit. */
export class FinalFailure extends Error {
  constructor(readonly staffMessage: string) {
    super(staffMessage);
    this.name = 'FinalFailure';
  }
}

export interface ClassifiedFailure {
  retryable: boolean;
  message: string;
}

/** Exchange failures say themselves whether to retry; unknown errors are retried within the deadline. */
export function classify(error: unknown): ClassifiedFailure {
  if (error instanceof ExchangeFailure) return { retryable: error.retryable, message: error.staffMessage };
  if (error instanceof FinalFailure) return { retryable: false, message: error.staffMessage };
  const text = error instanceof Error ? error.message : String(error);
  return { retryable: true, message: `Internal error while talking to the exchange: ${text}` };
}

export function isFailure(error: unknown, code: ExchangeFailure['code']): boolean {
  return error instanceof ExchangeFailure && error.code === code;
}

/** The exchange refused a TP/SL level because the market has already passed it (a TP crossed, a stop passed). */
export const isLevelPassed = (error: unknown): boolean => isFailure(error, 'trigger_crossed') || isFailure(error, 'level_passed');
