import { AuthenticationError, DuplicateOrderId, ExchangeError, InsufficientFunds, InvalidOrder, NetworkError, PermissionDenied, RateLimitExceeded, RequestTimeout } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { toExchangeFailure } from './errors';
import { ExchangeFailure } from './types';

const bybit = (code: number, msg: string) => `bybit {"retCode":${code},"retMsg":"${msg}","result":{},"retExtInfo":{},"time":1700000000000}`;
const bitget = (code: string, msg: string) => `bitget {"code":"${code}","msg":"${msg}","requestTime":1700000000000,"data":null}`;

describe('toExchangeFailure', () => {
  it.each([
    ['bybit', new AuthenticationError(bybit(10003, 'API key is invalid.')), 'auth', false, 'Bybit rejected the API key (10003 "API key is invalid."): ask the customer to reconnect their exchange'],
    ['bybit', new AuthenticationError(bybit(10004, 'error sign!')), 'auth', false, undefined],
    ['bybit', new PermissionDenied(bybit(10010, 'Unmatched IP, please check your API key')), 'ip_not_allowed', false, undefined],
    ['bybit', new PermissionDenied(bybit(10005, 'Permission denied')), 'permission', false, undefined],
    ['bybit', new InsufficientFunds(bybit(110007, 'ab not enough for new order')), 'insufficient_balance', false, undefined],
    ['bybit', new DuplicateOrderId(bybit(110072, 'OrderLinkedID is duplicate')), 'duplicate', false, undefined],
    ['bybit', new InvalidOrder(bybit(110017, 'Reduce-only rule not satisfied')), 'no_position', false, undefined],
    ['bybit', new InvalidOrder(bybit(110094, 'Order does not meet minimum order value')), 'below_minimum', false, undefined],
    ['bybit', new RateLimitExceeded(bybit(10006, 'Too many visits!')), 'rate_limit', true, undefined],
    ['bybit', new RateLimitExceeded('bybit GET http://127.0.0.1/v5/position/list 403 Forbidden access too frequent'), 'rate_limit', true, undefined],
    ['bybit', new ExchangeError(bybit(10016, 'System error. Please try again later.')), 'server', true, undefined],
    ['bitget', new AuthenticationError(bitget('40006', 'Invalid ACCESS_KEY')), 'auth', false, undefined],
    ['bitget', new AuthenticationError(bitget('40012', 'apikey/password is incorrect')), 'auth', false, undefined],
    ['bitget', new PermissionDenied(bitget('40018', 'Invalid IP')), 'ip_not_allowed', false, 'Bitget refused our server\'s IP address for this API key (40018 "Invalid IP"): ask the customer to add the platform\'s server IPs to the key, or reconnect through quick connect'],
    ['bitget', new PermissionDenied(bitget('40014', 'Incorrect permissions')), 'permission', false, undefined],
    ['bitget', new InsufficientFunds(bitget('43012', 'Insufficient balance')), 'insufficient_balance', false, undefined],
    ['bitget', new ExchangeError(bitget('40786', 'Duplicate clientOid')), 'duplicate', false, undefined],
    ['bitget', new ExchangeError(bitget('22002', 'No position to close')), 'no_position', false, undefined],
    ['bitget', new InvalidOrder(bitget('45110', 'less than the minimum amount 5 USDT')), 'below_minimum', false, undefined],
    ['bitget', new ExchangeError(bitget('40109', 'The data of the order cannot be found')), 'not_found', false, undefined],
    ['bitget', new RateLimitExceeded(bitget('429', 'Too Many Requests')), 'rate_limit', true, undefined],
    ['bitget', new RequestTimeout('bitget POST http://127.0.0.1/api/v2/mix/order/place-order request timed out (10000 ms)'), 'timeout', true, undefined],
    ['bitget', new NetworkError('bitget GET http://127.0.0.1/api fetch failed: ECONNREFUSED'), 'network', true, undefined],
  ] as const)('%s %s -> %s', (exchange, error, code, retryable, message) => {
    const failure = toExchangeFailure(exchange, error);
    expect(failure).toBeInstanceOf(ExchangeFailure);
    expect(failure.code).toBe(code);
    expect(failure.retryable).toBe(retryable);
    expect(failure.staffMessage.startsWith(exchange === 'bybit' ? 'Bybit ' : 'Bitget ')).toBe(true);
    if (message) expect(failure.staffMessage).toBe(message);
  });

  it.each([
    ['bitget', '45034', 'The clientOid already exists', 'duplicate'],
    ['bitget', '43118', 'Client order id already used', 'duplicate'],
    ...['40757', '45006', '40891', '43023', '45068', '40837', '22002'].map((code) => ['bitget', code, 'Insufficient position', 'no_position'] as const),
    ['bybit', '110017', 'Reduce-only rule not satisfied', 'no_position'],
    ['bybit', '110092', 'expect Rising, but trigger_price[6100000] <= current[6150000]', 'trigger_crossed'],
    ['bybit', '110093', 'expect Falling, but trigger_price[6100000] >= current[6050000]', 'trigger_crossed'],
    ['bitget', '40915', 'Long position take profit price please > mark price 60100', 'trigger_crossed'],
    ['bitget', '40830', 'Take profit price must be greater than the current price', 'trigger_crossed'],
    ['bitget', '40832', 'The take profit price of short positions should be less than the current price', 'trigger_crossed'],
    ['bybit', '10001', 'StopLoss:6050000 set for Buy position should lower than base_price:6000000??LastPrice', 'level_passed'],
    ['bybit', '10001', 'sl:257970000 set for Sell position should greater base_price:259477000??LastPrice', 'level_passed'],
    ['bybit', '10001', 'TakeProfit:5900000 set for Buy position should higher than base_price:6000000??LastPrice', 'trigger_crossed'],
    ['bybit', '10001', 'position idx not match position mode', 'invalid_request'],
    ['bitget', '40917', 'Stop price for long positions please < mark price 60000', 'level_passed'],
    ['bitget', '45122', 'Short position stop loss price please > mark price 106.86', 'level_passed'],
    ['bitget', '40834', 'The stop loss price of a short position must be greater than the current price', 'level_passed'],
    ['bitget', '40836', 'The stop loss price of the short position should be greater than the current price', 'level_passed'],
    ['bitget', '40833', 'The stop loss price of a long position must be less than the average open price', 'level_passed'],
    ['bitget', '40835', 'The stop loss price of the short position should be greater than the average opening price', 'level_passed'],
    ['bitget', '40920', 'Position or order exists, the position mode cannot be adjusted', 'invalid_request'],
  ] as const)('%s %s "%s" -> %s (LIVE-FIDELITY B2, B12, A1)', (exchange, code, msg, expected) => {
    const raw = exchange === 'bybit' ? new ExchangeError(bybit(Number(code), msg)) : new ExchangeError(bitget(code, msg));
    const failure = toExchangeFailure(exchange, raw);
    expect(failure).toMatchObject({ code: expected, retryable: false, exchangeCode: code });
    expect(failure.staffMessage).toContain(`(${code} "${msg.slice(0, 20)}`);
  });

  it('keeps the raw text when there is no exchange code, and passes ExchangeFailures through', () => {
    const failure = toExchangeFailure('bybit', new Error('BLOCKED outbound request to https://api.bybit.com'));
    expect(failure.code).toBe('invalid_request');
    expect(failure.retryable).toBe(false);
    expect(failure.staffMessage).toContain('BLOCKED outbound request to https://api.bybit.com');
    expect(toExchangeFailure('bitget', failure)).toBe(failure);
  });
});
