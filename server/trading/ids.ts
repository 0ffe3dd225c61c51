import { clientOrderId } from './exchanges/client-order-id';
import type { LegKind as ExecutionLegKind } from './legs';

/**
 * Client order ids of one execution, from the adapters' deterministic scheme: the same order, customer
 * and leg always give the same id, so a retry or a crash never places a second order. `round` > 0
 * names re-placed legs (after a resize or a stop move), which need ids of their own; `atMarket` names
 * the market execution of a level the market had already passed.
 */
export type LegKind = 'entry' | ExecutionLegKind;

const legCode: Record<LegKind, string> = { entry: 'e', tp1: 'tp1', tp2: 'tp2', tp3: 'tp3', sl: 'sl', trailing: 'tr', close: 'x' };

export function executionClientOrderId(orderId: number, customerId: number, kind: LegKind, round = 0, atMarket = false): string {
  const base = round > 0 ? `${legCode[kind]}r${round}` : legCode[kind];
  // A market execution is a plain order, whatever level it stands for: its id starts with 'm'.
  return clientOrderId({ orderId, customerId, leg: atMarket ? `m${base}` : base });
}
