/**
 * Deterministic client order ids (Bybit `orderLinkId`, Bitget `clientOid`): the same execution leg
 * always gets the same id, so a retry or a restart after a crash can never place it twice.
 *
 * Shape `ct<order>-<customer>-<leg>`, at most 36 characters of [A-Za-z0-9_-]: inside both
 * exchanges' rules (Bybit: max 36, letters, digits, '-' and '_'; Bitget: < 50 of [0-9a-zA-Z-+_#]).
 */
export const CLIENT_ORDER_ID_MAX_LENGTH = 36;

const PART = /^[A-Za-z0-9]+$/;
const LEG = /^[A-Za-z0-9_]{1,8}$/;
const WHOLE = /^ct([A-Za-z0-9]+)-([A-Za-z0-9]+)-([A-Za-z0-9_]{1,8})$/;

export interface ClientOrderIdParts {
  /** Our order (the spec's "transaction") id. */
  orderId: number | string;
  /** The customer the execution belongs to. */
  customerId: number | string;
  /** Which order of the execution: e.g. 'e' entry, 'tp1'..'tp3', 'sl', 'tr' trailing, 'x' close. */
  leg: string;
}

function part(name: string, value: number | string): string {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof value === 'number' && (!Number.isSafeInteger(value) || value < 0)) {
    throw new RangeError(`clientOrderId: ${name} must be a non-negative whole number, got ${value}`);
  }
  if (!PART.test(text)) throw new RangeError(`clientOrderId: ${name} may hold letters and digits only, got '${text}'`);
  return text;
}

export function clientOrderId({ orderId, customerId, leg }: ClientOrderIdParts): string {
  if (!LEG.test(leg)) throw new RangeError(`clientOrderId: leg must be 1-8 letters, digits or '_', got '${leg}'`);
  const id = `ct${part('orderId', orderId)}-${part('customerId', customerId)}-${leg}`;
  if (id.length > CLIENT_ORDER_ID_MAX_LENGTH) {
    throw new RangeError(`clientOrderId: '${id}' is ${id.length} characters; the exchanges allow ${CLIENT_ORDER_ID_MAX_LENGTH}`);
  }
  return id;
}

/** The parts of one of our ids, or null for ids placed by someone else (e.g. by hand on the exchange). */
export function parseClientOrderId(id: string): { orderId: string; customerId: string; leg: string } | null {
  const match = WHOLE.exec(id);
  if (!match || id.length > CLIENT_ORDER_ID_MAX_LENGTH) return null;
  return { orderId: match[1]!, customerId: match[2]!, leg: match[3]! };
}

/**
 * What an order id names, for the exchanges that keep kinds apart (Bitget answers normal orders,
 * TP/SL plans and trailing plans from different lists): 'order' entries and closes, 'take_profit' TP
 * legs, 'trailing' trailing stops.
 */
export type OrderKind = 'order' | 'take_profit' | 'stop_loss' | 'trailing';

/**
 * The kind of one of our ids from its leg ('tp1', 'tp2r1': take_profit; 'sl', 'slr1': stop_loss, one
 * execution's sized stop; 'tr', 'trr1': trailing); anything else is an order (a level executed at market
 * has a leg starting with 'm').
 */
export function orderKindOf(clientOrderId: string): OrderKind {
  const leg = parseClientOrderId(clientOrderId)?.leg ?? '';
  if (leg.startsWith('tp')) return 'take_profit';
  if (leg.startsWith('sl')) return 'stop_loss';
  if (leg.startsWith('tr')) return 'trailing';
  return 'order';
}
