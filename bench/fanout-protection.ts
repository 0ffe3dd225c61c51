import type { SandboxProcess } from './sandbox-process';

/** p50 / p99 / max of a list of milliseconds. */
export interface Spread {
  p50: number;
  p99: number;
  max: number;
}

export interface ProtectionTimes {
  /** Each filled entry's fill -> the first stop protecting it (0 when the stop rode on the entry). */
  fillToStop: Spread;
  /** Each filled entry's fill -> its last protective order (stop, take-profit legs, trailing stop). */
  fillToLastLeg: Spread;
  positions: number;
}

export function spreadOf(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  return { p50: at(50), p99: at(99), max: sorted.at(-1) ?? 0 };
}

/**
 * Reads the sandbox's own timestamps (the exchange's clock: when each order arrived). A market entry
 * fills on arrival; the stop is the first stop-loss order of the account after it (the one the entry
 * carried, made at its fill, or the execution's own); the last leg is the latest protective order.
 * Each benchmark account holds one execution of its Order, so its protective orders are that one's.
 */
export async function protectionTimes(sandbox: SandboxProcess, positions: Array<{ uid: string; orderId: number }>): Promise<ProtectionTimes> {
  const fillToStop: number[] = [];
  const fillToLastLeg: number[] = [];
  const accounts = await Promise.all(positions.map(({ uid }) => sandbox.control.account(uid)));
  for (const [i, { orderId }] of positions.entries()) {
    const ours = new RegExp(`^ct${orderId}-\\d+-(tp|sl|tr|m)`);
    const orders = accounts[i]!.orders;
    const entry = orders.find((o) => o.clientOrderId.startsWith(`ct${orderId}-`) && o.clientOrderId.endsWith('-e') && o.filledQty > 0);
    if (!entry) continue;
    const protection = orders.filter((o) => (o.clientOrderId === '' ? o.labels.tpsl === 'sl' || o.labels.tpsl === 'tp' : ours.test(o.clientOrderId)));
    const stops = protection.filter((o) => o.kind !== 'trailing' && (o.labels.tpsl === 'sl' || /-sl(r\d+)?$/.test(o.clientOrderId)));
    if (stops.length === 0 || protection.length === 0) continue;
    fillToStop.push(Math.min(...stops.map((o) => o.createdAt)) - entry.createdAt);
    fillToLastLeg.push(Math.max(...protection.map((o) => o.createdAt)) - entry.createdAt);
  }
  return { fillToStop: spreadOf(fillToStop), fillToLastLeg: spreadOf(fillToLastLeg), positions: fillToStop.length };
}

const ms = (value: number) => (value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`);
export const spreadText = (spread: Spread) => `${ms(spread.p50)} / ${ms(spread.p99)} / ${ms(spread.max)}`;
