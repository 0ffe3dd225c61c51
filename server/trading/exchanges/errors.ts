import {
  AuthenticationError,
  BadRequest,
  BadSymbol,
  DDoSProtection,
  DuplicateOrderId,
  ExchangeNotAvailable,
  InsufficientFunds,
  InvalidNonce,
  InvalidOrder,
  NetworkError,
  OrderNotFound,
  PermissionDenied,
  RateLimitExceeded,
  RequestTimeout,
} from 'ccxt';
import { ExchangeFailure, type ExchangeId, type FailureCode } from './types';

export const exchangeNames: Record<ExchangeId, string> = { bybit: 'Bybit', bitget: 'Bitget' };

interface CodeRule {
  code: FailureCode;
  retryable: boolean;
  /** Completes "<Exchange> <what> (<code>): <advice>". */
  what: string;
  advice: string;
}

const rule = (code: FailureCode, retryable: boolean, what: string, advice: string): CodeRule => ({ code, retryable, what, advice });

const RECONNECT = 'ask the customer to reconnect their exchange';
const badKey = rule('auth', false, 'rejected the API key', RECONNECT);
const badSign = rule('auth', false, 'rejected the request signature (the API secret does not match the key)', RECONNECT);
const badIp = rule('ip_not_allowed', false, "refused our server's IP address for this API key", "ask the customer to add the platform's server IPs to the key, or reconnect through quick connect");
const noPermission = rule('permission', false, 'says the API key lacks a permission this needs', 'ask the customer to enable read and contract trading on the key, or reconnect');
const poor = rule('insufficient_balance', false, 'refused the order for insufficient balance', 'the customer must deposit USDT or use a smaller amount');
const duplicate = rule('duplicate', false, 'already has an order with this client order id', 'the order was placed before; look it up instead of placing it again');
const notFound = rule('not_found', false, 'has no such order', 'it was never placed, or it is older than the exchange keeps');
const noPosition = rule('no_position', false, 'has no open position to reduce or close', 'the position was already closed (by TP/SL, liquidation or by hand)');
const tooSmall = rule('below_minimum', false, 'refused the order as below the minimum size or value', "raise the group's amount or skip this customer");
const limited = rule('rate_limit', true, 'is rate limiting our requests', 'they are retried automatically; lower the request rate if this persists');
const busy = rule('server', true, 'is busy or failing on its side', 'the request is retried automatically');
const clock = rule('network', true, 'rejected the request timestamp', "the request is retried; if it persists, check the server's clock (NTP)");
const crossed = rule('trigger_crossed', false, 'refused the take profit because the market has already crossed its trigger price', 'that level is executed at market instead');
const passed = rule('level_passed', false, 'refused the stop loss because the market has already passed it', 'the position is closed at market instead');
/** Bitget 40833/40835: about the entry, not the market (a stop moved exactly to the entry price). */
const beyondEntry = rule('level_passed', false, "refused the stop loss at or beyond the position's average open price", 'compare the level with the mark price before closing at market; a stop one tick short of the entry is accepted');
const tooManyPlans = rule('invalid_request', false, 'refused the order: the symbol has reached its maximum of open conditional orders', 'cancel stale TP/SL orders on this symbol');
const modeBusy = rule('invalid_request', false, 'cannot change the position or margin mode while positions or orders are open', 'close them first, or keep the strategy in the mode the account uses');
const modeMismatch = rule('invalid_request', false, 'refused the order because it does not match the account\'s position or margin mode', 'the mode is read again before the next attempt');
const noLiquidity = rule('no_liquidity', true, "had nothing in its order book to fill the market order", 'it is sent again shortly; what it would close keeps its stop meanwhile');
const riskLimit = rule('risk_limit', false, "refused the order or leverage: it would exceed the symbol's risk limit (position value at this leverage, or the largest market order)", 'lower the strategy leverage or the amount');
/** "Not modified": the setting or stop already has the value asked for (adapters treat it as success). */
const unchanged = rule('invalid_request', false, 'answered that nothing changed', 'the setting already had this value');

/** Exchange codes that decide the class on their own; see EXCHANGES 2.7 and 3.7, LIVE-FIDELITY B1, B2, B12. */
const codeRules: Record<ExchangeId, Record<string, CodeRule>> = {
  bybit: {
    '10003': badKey, '10007': badKey, '33004': badKey, '-2015': badKey,
    '10004': badSign,
    '10002': clock,
    '10005': noPermission,
    '10010': badIp,
    '10009': rule('auth', false, 'has banned the IP address or the key', 'contact Bybit support; the key cannot be used meanwhile'),
    '10020': rule('permission', false, 'says the account is not a Unified Trading Account', 'ask the customer to upgrade the Bybit account to UTA and reconnect'),
    '10006': limited, '10018': limited,
    '10016': busy, '5004': busy, '170007': busy,
    '110004': poor, '110007': poor, '110012': poor, '110044': poor, '110045': poor, '110006': poor, '30031': poor,
    '110072': duplicate, '170141': duplicate, '12141': duplicate,
    '110017': noPosition,
    '110001': notFound, '170213': notFound,
    '110094': tooSmall, '170136': tooSmall, '170140': tooSmall, '3100116': tooSmall, '30003': tooSmall,
    '110092': crossed, '110093': crossed,
    '110009': tooManyPlans,
    '110024': modeBusy, '110028': modeBusy,
    '34040': unchanged, '110043': unchanged, '110025': unchanged,
    '110090': riskLimit, '110013': riskLimit,
  },
  bitget: {
    '40006': badKey, '40037': badKey, '40011': badKey, '40012': badKey,
    '40009': badSign, '40010': badSign,
    '40004': clock, '40005': clock, '40008': clock,
    '40018': badIp,
    '40014': noPermission,
    '429': limited,
    '40015': busy, '40604': busy, '500': busy,
    '43012': poor, '40762': poor, '40711': poor, '40712': poor,
    // 45034 and 43118 are Bitget's documented codes; 40786 is what the sandbox and older clients answer.
    '45034': duplicate, '43118': duplicate, '40786': duplicate,
    '22002': noPosition, '40757': noPosition, '45006': noPosition, '40891': noPosition, '43023': noPosition, '45068': noPosition, '40837': noPosition,
    '40109': notFound, '40768': notFound, '43001': notFound, '43025': notFound,
    '45110': tooSmall, '45111': tooSmall,
    '40915': crossed, '40830': crossed, '40832': crossed,
    '40917': passed, '45122': passed, '40834': passed, '40836': passed,
    '40833': beyondEntry, '40835': beyondEntry,
    '40889': tooManyPlans, '40890': tooManyPlans,
    '40920': modeBusy, '45117': modeBusy,
    '40774': modeMismatch,
    '45054': unchanged,
    '22045': noLiquidity,
    '45112': riskLimit, '40921': riskLimit, '45044': riskLimit,
  },
};

/**
 * Bybit answers a take profit or stop loss on the wrong side of the market with the generic parameter
 * code 10001 ("StopLoss:... set for Buy position should lower than base_price", "sl:... should greater
 * base_price", ccxt issues 19089, 21031): the message tells which level it was.
 */
const messageRules: Record<ExchangeId, Array<{ code: string; pattern: RegExp; rule: CodeRule }>> = {
  bybit: [
    { code: '10001', pattern: /\b(sl|stop_?loss)\b.*\bshould\b/i, rule: passed },
    { code: '10001', pattern: /\b(tp|take_?profit)\b.*\bshould\b/i, rule: crossed },
  ],
  bitget: [],
};

/** Codes meaning "nothing to change" per operation (LIVE-FIDELITY B1, B12; EXCHANGES 2.3). */
export const UNCHANGED_CODES: Record<ExchangeId, Record<'leverage' | 'positionMode' | 'tradingStop', readonly string[]>> = {
  bybit: { leverage: ['110043'], positionMode: ['110025'], tradingStop: ['34040'] },
  bitget: { leverage: ['45054'], positionMode: [], tradingStop: [] },
};

/** The exchange's own error code, read from the response body ccxt puts in its message. */
export function exchangeCodeOf(message: string): string | undefined {
  const match = /"(?:retCode|ret_code|code)"\s*:\s*"?(-?\d+)"?/.exec(message);
  return match?.[1];
}

/** The exchange's own error text, for the staff message. */
function exchangeMessageOf(message: string): string | undefined {
  const match = /"(?:retMsg|ret_msg|msg)"\s*:\s*"([^"]{1,200})"/.exec(message);
  return match?.[1];
}

function classRule(error: unknown): CodeRule {
  // Order matters: subclasses before their parents.
  if (error instanceof RequestTimeout) return rule('timeout', true, 'did not answer in time', 'the request is retried with the same client order id, so it cannot be placed twice');
  if (error instanceof RateLimitExceeded || error instanceof DDoSProtection) return limited;
  if (error instanceof ExchangeNotAvailable) return busy;
  if (error instanceof InvalidNonce) return clock;
  if (error instanceof NetworkError) return rule('network', true, 'could not be reached', 'the request is retried automatically');
  if (error instanceof PermissionDenied) return noPermission;
  if (error instanceof AuthenticationError) return badKey;
  if (error instanceof InsufficientFunds) return poor;
  if (error instanceof DuplicateOrderId) return duplicate;
  if (error instanceof OrderNotFound) return notFound;
  if (error instanceof InvalidOrder || error instanceof BadRequest || error instanceof BadSymbol) {
    return rule('invalid_request', false, 'refused the request as invalid', 'check the strategy settings (symbol, size, prices)');
  }
  return rule('invalid_request', false, 'answered with an error', 'see the exchange message; the request is not retried');
}

/** Turns anything an adapter call throws into an ExchangeFailure with a message staff can act on. */
export function toExchangeFailure(exchange: ExchangeId, error: unknown): ExchangeFailure {
  if (error instanceof ExchangeFailure) return error;
  const message = error instanceof Error ? error.message : String(error);
  const exchangeCode = exchangeCodeOf(message);
  const said = exchangeMessageOf(message);
  const byMessage = messageRules[exchange].find((candidate) => candidate.code === exchangeCode && candidate.pattern.test(said ?? ''))?.rule;
  const byCode = byMessage ?? (exchangeCode !== undefined ? codeRules[exchange][exchangeCode] : undefined);
  const chosen = byCode ?? (/duplicate/i.test(message) && !(error instanceof NetworkError) ? duplicate : classRule(error));
  const codePart = exchangeCode !== undefined ? ` (${exchangeCode}${said ? ` "${said}"` : ''})` : '';
  // Without an exchange code the raw text is the only clue (e.g. a blocked host, a ccxt bug).
  const detail = exchangeCode === undefined && !byCode ? ` [${message.slice(0, 300)}]` : '';
  const staffMessage = `${exchangeNames[exchange]} ${chosen.what}${codePart}: ${chosen.advice}${detail}`;
  return new ExchangeFailure(chosen.code, chosen.retryable, staffMessage, exchangeCode);
}

/** A failure raised by our own checks (no exchange call involved). */
export function failure(exchange: ExchangeId, code: FailureCode, what: string, advice: string, retryable = false): ExchangeFailure {
  return new ExchangeFailure(code, retryable, `${exchangeNames[exchange]} ${what}: ${advice}`);
}
