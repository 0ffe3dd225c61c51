import { describe, expect, it } from 'vitest';
import { CLIENT_ORDER_ID_MAX_LENGTH, clientOrderId, parseClientOrderId } from './client-order-id';

describe('clientOrderId', () => {
  it('is deterministic and reads back', () => {
    const id = clientOrderId({ orderId: 1234, customerId: 98765, leg: 'tp2' });
    expect(id).toBe('ct1234-98765-tp2');
    expect(clientOrderId({ orderId: 1234, customerId: 98765, leg: 'tp2' })).toBe(id);
    expect(parseClientOrderId(id)).toEqual({ orderId: '1234', customerId: '98765', leg: 'tp2' });
  });

  it('stays inside both exchanges alphabets and lengths for the largest ids', () => {
    const id = clientOrderId({ orderId: 999_999_999_999, customerId: 999_999_999_999, leg: 'abcdefgh' });
    expect(id.length).toBeLessThanOrEqual(CLIENT_ORDER_ID_MAX_LENGTH);
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,36}$/);
  });

  it('refuses parts that would break the format or the length', () => {
    expect(() => clientOrderId({ orderId: 1, customerId: 2, leg: 'tp-1' })).toThrow(/leg/);
    expect(() => clientOrderId({ orderId: -1, customerId: 2, leg: 'e' })).toThrow(/orderId/);
    expect(() => clientOrderId({ orderId: 'a-b', customerId: 2, leg: 'e' })).toThrow(/orderId/);
    expect(() => clientOrderId({ orderId: 1.5, customerId: 2, leg: 'e' })).toThrow(/orderId/);
    expect(() => clientOrderId({ orderId: '1'.repeat(22), customerId: '2'.repeat(10), leg: 'e' })).toThrow(/36/);
  });

  it('does not claim ids it did not make', () => {
    expect(parseClientOrderId('cp-entry-1')).toBeNull();
    expect(parseClientOrderId('ct1-2')).toBeNull();
  });
});
