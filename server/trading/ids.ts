import { clientOrderId } from './exchanges/client-order-id';

/**
 * Client order ids of one execution, from the adapters' deterministic scheme: the same order, customer
 * and leg always give the same id, so a retry or a crash never places a second order. `round` > 0
 * names re-placed legs (after a resize), which need ids of their own.
 */
export type LegKind = 'entry' | 'tp1' | 'tp2' | 'tp3' | 'trailing' | 'close';

const legCode: Record<LegKind, string> = { entry: 'e', tp1: 'tp1', tp2: 'tp2', tp3: 'tp3', trailing: 'tr', close: 'x' };

export function executionClientOrderId(orderId: number, customerId: number, kind: LegKind, round = 0): string {
  return clientOrderId({ orderId, customerId, leg: round > 0 ? `${legCode[kind]}r${round}` : legCode[kind] });
}
