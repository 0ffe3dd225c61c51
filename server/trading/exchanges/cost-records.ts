import type { bybit as BybitExchange, Exchange } from 'ccxt';
import { BITGET_PRODUCT, bitgetOf } from './bitget-orders';
import type { CostRecord, PositionSide } from './types';

/**
 * The account's own books read back for the fees and funding of a position (LIVE-FIDELITY D12). Both
 * exchanges answer newest first, at most 100 rows a page, and a week at most per request.
 */

/** One page read through the adapter's rate-limited call. */
export type ReadPage = <T>(work: (ex: Exchange) => Promise<T>) => Promise<T>;

type Row = Record<string, unknown>;

const WEEK_MS = 7 * 86_400_000;

/** [since, until] cut into windows of at most a week. */
export function weekWindows(since: number, until: number): Array<{ start: number; end: number }> {
  const windows: Array<{ start: number; end: number }> = [];
  for (let start = since; start <= until; start += WEEK_MS + 1) windows.push({ start, end: Math.min(start + WEEK_MS, until) });
  return windows;
}

const num = (value: unknown) => Number(value ?? 0) || 0;

/**
 * docs/v5/order/execution.mdx: a trade's `execFee`, funding as `execType: Funding` (`execFee` paid, negative
 * when received, `side` the position's). A trade that closes (`closedSize` > 0) is on the other side of its order.
 */
export function bybitCostRecord(row: Row): CostRecord {
  const buy = row.side === 'Buy';
  const ids = { orderId: String(row.orderId ?? ''), clientOrderId: String(row.orderLinkId ?? ''), time: num(row.execTime), paid: num(row.execFee) };
  if (row.execType === 'Funding') return { kind: 'funding', ...ids, side: buy ? 'long' : 'short', sizeChange: 0 };
  const closed = num(row.closedSize);
  return { kind: 'trade', ...ids, side: buy !== (closed > 0) ? 'long' : 'short', sizeChange: closed > 0 ? -closed : num(row.execQty) };
}

export async function bybitCostRecords(read: ReadPage, symbol: string, since: number, until: number): Promise<CostRecord[]> {
  const records: CostRecord[] = [];
  for (const window of weekWindows(since, until)) {
    const newestFirst: CostRecord[] = [];
    let cursor = '';
    do {
      const query = { category: 'linear', symbol, startTime: window.start, endTime: window.end, limit: 100, ...(cursor ? { cursor } : {}) };
      const page = (await read((ex) => (ex as BybitExchange).privateGetV5ExecutionList(query))) as { result?: { list?: Row[]; nextPageCursor?: string } };
      newestFirst.push(...(page.result?.list ?? []).map(bybitCostRecord));
      cursor = page.result?.nextPageCursor ?? '';
    } while (cursor);
    records.push(...newestFirst.reverse());
  }
  return records;
}

/** Bitget's `tradeSide`: open_long, close_short, burst_close_long... in hedge mode; buy_single, sell_single in one-way mode (no side). */
const sideOfTradeSide = (tradeSide: string): PositionSide | null => (tradeSide.endsWith('long') ? 'long' : tradeSide.endsWith('short') ? 'short' : null);

/** contract/trade/Get-Order-Fills: `feeDetail[].totalFee` is negative when paid. */
export function bitgetFillRecord(row: Row): CostRecord {
  const tradeSide = String(row.tradeSide ?? '');
  const side = sideOfTradeSide(tradeSide);
  const fees = Array.isArray(row.feeDetail) ? (row.feeDetail as Row[]) : [];
  const paid = fees.reduce((sum, fee) => sum - num(fee.totalFee), 0);
  const volume = num(row.baseVolume);
  // In hedge mode `side` does not tell open from close (a long is closed with side buy); tradeSide does.
  const sizeChange = side !== null ? (tradeSide.startsWith('open') ? volume : -volume) : row.side === 'buy' ? volume : -volume;
  return { kind: 'trade', orderId: String(row.orderId ?? ''), clientOrderId: '', side, time: num(row.cTime), paid, sizeChange };
}

/** contract/account/Get-Account-Bill, `businessType: contract_settle_fee`: `amount` is negative when paid; the bill names no side. */
export const bitgetFundingRecord = (row: Row): CostRecord => ({ kind: 'funding', orderId: '', clientOrderId: '', side: null, time: num(row.cTime), paid: 0 - num(row.amount), sizeChange: 0 });

/** Two lists of one window, each newest first, as one oldest first (a stable sort keeps the exchange's order within a millisecond). */
const oldestFirst = (...lists: CostRecord[][]) => lists.flatMap((list) => [...list].reverse()).sort((a, b) => a.time - b.time);

/** Pages of one Bitget list, `idLessThan` = the previous page's `endId`, until a page is short. */
async function bitgetPages(read: ReadPage, fetch: (ex: Exchange, cursor: Row) => Promise<unknown>, rowsOf: (data: Row) => Row[]): Promise<Row[]> {
  const rows: Row[] = [];
  let endId = '';
  for (;;) {
    const answer = (await read((ex) => fetch(ex, endId ? { idLessThan: endId } : {}))) as { data?: Row | null };
    const page = answer.data ? rowsOf(answer.data) : [];
    rows.push(...page);
    if (page.length < 100 || !answer.data?.endId) return rows;
    endId = String(answer.data.endId);
  }
}

export async function bitgetCostRecords(read: ReadPage, symbol: string, since: number, until: number): Promise<CostRecord[]> {
  const records: CostRecord[] = [];
  for (const window of weekWindows(since, until)) {
    const query = { productType: BITGET_PRODUCT.productType, symbol, startTime: String(window.start), endTime: String(window.end), limit: '100' };
    const fills = await bitgetPages(read, (ex, cursor) => bitgetOf(ex).privateMixGetV2MixOrderFills({ ...query, ...cursor }), (data) => (data.fillList as Row[] | null) ?? []);
    const bills = await bitgetPages(
      read,
      (ex, cursor) => bitgetOf(ex).privateMixGetV2MixAccountBill({ ...query, businessType: 'contract_settle_fee', ...cursor }),
      (data) => (data.bills as Row[] | null) ?? [],
    );
    // The bill's symbol is checked here too: the endpoint documents no symbol filter.
    records.push(...oldestFirst(fills.map(bitgetFillRecord), bills.filter((bill) => bill.symbol === symbol).map(bitgetFundingRecord)));
  }
  return records;
}
