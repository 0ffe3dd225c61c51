/** What protects one execution's position: its take-profit legs, its stop loss and its trailing stop. */
export type ProtectionKind = 'tp1' | 'tp2' | 'tp3' | 'sl' | 'trailing';

/**
 * One order of an execution after its entry, as recorded in `executions.legs`: a protective order, or
 * one round of a close at market ('close': each round has a client id of its own, so a close the book
 * filled in part is sent again as a new order).
 */
export type LegKind = ProtectionKind | 'close';

export interface ExecutionLeg {
  kind: LegKind;
  /** Our client order id; '' for a TP/SL the exchange made from the entry's attached levels. */
  clientOrderId: string;
  /** Made by the exchange from the levels attached to the entry (no client id of ours). */
  attached?: boolean;
  /** The exchange's id of an attached leg, once looked up after the fill. */
  exchangeOrderId?: string;
  /** Bitget's planType of an attached leg (needed to cancel it). */
  planType?: string;
  /** 0 for a leg covering the whole position (Bitget's attached pos_loss). */
  quantity: number;
  /** Trigger price (TP, stop) or activation price (trailing), as placed. */
  price: number;
  /** The level asked for when the exchange made us place it a tick away (a stop exactly at the open price). */
  target?: number;
  filledQty: number;
  avgPrice: number | null;
  status: 'open' | 'filled' | 'canceled';
  /** -1 attached to the entry, 0 first placement, n after the n-th replacement (resize, moved stop). */
  round: number;
  /** Executed at market at once because the market had already passed its level. */
  atMarket?: boolean;
}

export const takeProfitKinds = ['tp1', 'tp2', 'tp3'] as const;

export const isTakeProfit = (kind: LegKind): kind is (typeof takeProfitKinds)[number] => kind === 'tp1' || kind === 'tp2' || kind === 'tp3';

/** The leg of `kind` that currently protects the position: the open one of the latest round. */
export function currentLeg(legs: ExecutionLeg[], kind: LegKind): ExecutionLeg | undefined {
  return legs.filter((leg) => leg.kind === kind && leg.status === 'open').sort((a, b) => b.round - a.round)[0];
}

/** Open legs replaced by a newer round whose cancel has not gone through yet. */
export function supersededLegs(legs: ExecutionLeg[]): ExecutionLeg[] {
  return legs.filter((leg) => leg.status === 'open' && currentLeg(legs, leg.kind) !== leg);
}

export const legLabel: Record<LegKind, string> = { tp1: 'TP1', tp2: 'TP2', tp3: 'TP3', sl: 'Stop loss', trailing: 'Trailing stop', close: 'Close' };
