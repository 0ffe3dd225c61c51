import { randomHex } from '../random-hex';

/** Bybit /v5/trade answer frames (docs/v5/websocket/trade/guideline.mdx): the fields each op returns. */
export interface TradeAnswer {
  reqId?: string;
  retCode: number;
  retMsg: string;
  op: string;
  data?: unknown;
  retExtInfo?: Record<string, never>;
  header?: Record<string, string>;
  connId: string;
}

/** Order ops and the REST route each one is "the same as" (args[0] is that route's body). */
export const tradeOps: Record<string, string> = {
  'order.create': 'POST /v5/order/create',
  'order.amend': 'POST /v5/order/amend',
  'order.cancel': 'POST /v5/order/cancel',
};

/** Codes the guideline documents for the trade socket (order ops and auth). */
export const TradeCode = {
  ok: 0,
  paramError: 10001,
  timestamp: 10002,
  invalidKey: 10003,
  invalidSign: 10004,
  accountLimited: 10006,
  serverError: 10016,
  serviceRestarting: 10019,
  ipLimited: 10403,
  opNotFound: 10404,
  repeatAuth: 20001,
  duplicateReqId: 20006,
} as const;

/** docs/v5/websocket/trade/guideline.mdx, retCode 10019 (also docs/v5/error.mdx "WS OE General code"). */
export const SERVICE_RESTARTING_TEXT =
  'ws trade service is restarting, do not accept new request, but the request in the process is not affected. You can build new connection to be routed to normal service';

/** A connection id in Bybit's shape (e.g. "cnt5leec0hvan15eukcg-2t"). */
export function newConnId(sequence: number): string {
  return `${randomHex(10)}-${sequence.toString(36)}`;
}

/** One order op's answer header: the account's budget for the op (X-Bapi-Limit*), a trace id and the time. */
export function answerHeader(limits: Record<string, string>, now: number): Record<string, string> {
  return { ...limits, Traceid: randomHex(16), Timenow: String(now) };
}
