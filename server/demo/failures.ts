import type { ExchangeId } from '../trading/exchanges/types';
import { toExchangeFailure } from '../trading/exchanges/errors';

/**
 * Exchange answers the demo's failed entries and closes met, as ccxt reports them (the exchange's
 * JSON in the error message). The staff sentence is made by the engine's own classifier.
 */
const entryRefusals: Record<ExchangeId, string[]> = {
  bybit: [
    '{"retCode":110007,"retMsg":"ab not enough for new order"}',
    '{"retCode":110007,"retMsg":"ab not enough for new order"}',
    '{"retCode":10003,"retMsg":"API key is invalid."}',
    '{"retCode":10010,"retMsg":"Unmatched IP, please check your API key\'s bound IP addresses."}',
  ],
  bitget: [
    '{"code":"43012","msg":"Insufficient balance"}',
    '{"code":"43012","msg":"Insufficient balance"}',
    '{"code":"40006","msg":"Invalid ACCESS_KEY"}',
    '{"code":"40018","msg":"Invalid IP"}',
  ],
};

const closeRefusals: Record<ExchangeId, string> = {
  bybit: '{"retCode":10016,"retMsg":"Server error"}',
  bitget: '{"code":"40015","msg":"System is abnormal, please try again later"}',
};

const staffMessage = (exchange: ExchangeId, body: string) => toExchangeFailure(exchange, new Error(`${exchange} ${body}`)).staffMessage;

/** What staff read when an entry was refused (balance, key, IP); `pick` (0 to 1) chooses which. */
export function entryFailureText(exchange: ExchangeId, pick: number): string {
  const choices = entryRefusals[exchange];
  return staffMessage(exchange, choices[Math.min(choices.length - 1, Math.floor(pick * choices.length))]!);
}

/** What staff read when a close kept failing on the exchange's side until the engine gave up. */
export function closeFailureText(exchange: ExchangeId): string {
  return staffMessage(exchange, closeRefusals[exchange]);
}
