import type { CostRecord, PositionSide } from './exchanges/types';

/** What a position paid (negative: received) in trading fees and in funding, in USDT. */
export interface PositionCosts {
  fees: number;
  funding: number;
}

/** How the entry order shows in the exchange's records. */
export interface EntryOrderIds {
  exchangeOrderId: string | null;
  clientOrderId: string;
}

const EPSILON = 1e-9;
const round8 = (value: number) => Number(value.toFixed(8));

const isEntry = (record: CostRecord, entry: EntryOrderIds) =>
  record.kind === 'trade' && ((entry.exchangeOrderId !== null && record.orderId === entry.exchangeOrderId) || (record.clientOrderId !== '' && record.clientOrderId === entry.clientOrderId));

/** What a record changed of the position on `side` (one-way records name a direction only: a buy grows a long). */
const sizeChangeOf = (record: CostRecord, side: PositionSide) => (record.side !== null ? record.sizeChange : side === 'long' ? record.sizeChange : -record.sizeChange);

const belongsTo = (record: CostRecord, side: PositionSide) => record.side === null || record.side === side;

/** The costs of the records read, and whether the position came back to flat in them (then they are all this execution's). */
export interface RecordedCosts extends PositionCosts {
  flat: boolean;
  /** Quantity the records opened on the side from the entry on. */
  opened: number;
}

/**
 * The fees and funding of the position an execution opened (LIVE-FIDELITY D12), from the account's records of
 * its symbol, oldest first: from the entry's first fill, every record of its side until the side is flat again.
 * Null when the entry is not in the records.
 */
export function positionCosts(records: readonly CostRecord[], side: PositionSide, entry: EntryOrderIds): RecordedCosts | null {
  const start = records.findIndex((record) => isEntry(record, entry));
  if (start < 0) return null;
  const costs: RecordedCosts = { fees: 0, funding: 0, flat: false, opened: 0 };
  let size = 0;
  for (const record of records.slice(start)) {
    if (!belongsTo(record, side)) continue;
    if (record.kind === 'funding') {
      costs.funding += record.paid;
      continue;
    }
    const change = sizeChangeOf(record, side);
    costs.fees += record.paid;
    costs.opened += Math.max(change, 0);
    size += change;
    if (size <= EPSILON) {
      costs.flat = true;
      break;
    }
  }
  return { ...costs, fees: round8(costs.fees), funding: round8(costs.funding), opened: round8(costs.opened) };
}

/** `part` (0-1) of what was paid: an execution's share of a position it did not hold alone. */
export const partOf = (costs: PositionCosts, part: number): PositionCosts => ({ fees: round8(costs.fees * part), funding: round8(costs.funding * part) });
