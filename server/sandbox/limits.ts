/** Rolling-window request counters (per IP, per account and route), as the real exchanges enforce them. */
export class SlidingWindow {
  private readonly hits = new Map<string, number[]>();

  /** Records a hit unless the key already has `limit` hits inside the window; answers whether it was allowed. */
  take(key: string, limit: number, windowMs: number, now: number): boolean {
    let list = this.hits.get(key);
    if (!list) {
      list = [];
      this.hits.set(key, list);
    }
    let expired = 0;
    while (expired < list.length && (list[expired] ?? 0) <= now - windowMs) expired += 1;
    if (expired > 0) list.splice(0, expired);
    if (list.length >= limit) return false;
    list.push(now);
    return true;
  }

  /** Hits left in the window and when the oldest one leaves it. */
  status(key: string, limit: number, windowMs: number, now: number): { remaining: number; resetAt: number } {
    const list = (this.hits.get(key) ?? []).filter((at) => at > now - windowMs);
    return { remaining: Math.max(limit - list.length, 0), resetAt: (list[0] ?? now) + windowMs };
  }

  clear(): void {
    this.hits.clear();
  }
}

export interface LimitRule {
  limit: number;
  windowMs: number;
}

/** Per-IP ceilings: Bybit 600 requests / 5 s (HTTP 403), Bitget 6000 / minute (HTTP 429). */
export const ipLimits: Record<'bybit' | 'bitget', LimitRule> = {
  bybit: { limit: 600, windowMs: 5000 },
  bitget: { limit: 6000, windowMs: 60_000 },
};

/**
 * Per-account (UID) ceilings per endpoint, rolling one second (EXCHANGES 2.6 / 3.6). Bitget's come from
 * each endpoint's page (bitget.com/api-doc/contract/..., "Rate limit: N req/sec/UID"; spot account info
 * bitget.com/api-doc/spot/account/Get-Account-Info, 1/s).
 */
export const accountLimits: Record<string, LimitRule> = {
  'POST /v5/order/create': { limit: 10, windowMs: 1000 },
  'POST /v5/order/amend': { limit: 10, windowMs: 1000 },
  'POST /v5/order/cancel': { limit: 10, windowMs: 1000 },
  'POST /v5/position/set-leverage': { limit: 10, windowMs: 1000 },
  'POST /v5/position/trading-stop': { limit: 10, windowMs: 1000 },
  'GET /v5/order/realtime': { limit: 50, windowMs: 1000 },
  'GET /v5/order/history': { limit: 50, windowMs: 1000 },
  'GET /v5/position/list': { limit: 50, windowMs: 1000 },
  'GET /v5/account/wallet-balance': { limit: 50, windowMs: 1000 },
  'GET /v5/execution/list': { limit: 50, windowMs: 1000 },
  'GET /v5/position/closed-pnl': { limit: 50, windowMs: 1000 },
  'POST /api/v2/mix/order/place-order': { limit: 10, windowMs: 1000 },
  'POST /api/v2/mix/order/cancel-order': { limit: 10, windowMs: 1000 },
  'POST /api/v2/mix/order/close-positions': { limit: 1, windowMs: 1000 },
  'POST /api/v2/mix/order/place-tpsl-order': { limit: 10, windowMs: 1000 },
  'POST /api/v2/mix/order/place-pos-tpsl': { limit: 10, windowMs: 1000 },
  'POST /api/v2/mix/order/modify-tpsl-order': { limit: 10, windowMs: 1000 },
  'POST /api/v2/mix/order/place-plan-order': { limit: 10, windowMs: 1000 },
  'POST /api/v2/mix/order/cancel-plan-order': { limit: 10, windowMs: 1000 },
  'POST /api/v2/mix/account/set-leverage': { limit: 5, windowMs: 1000 },
  'POST /api/v2/mix/account/set-margin-mode': { limit: 5, windowMs: 1000 },
  'POST /api/v2/mix/account/set-position-mode': { limit: 5, windowMs: 1000 },
  'GET /api/v2/mix/position/all-position': { limit: 5, windowMs: 1000 },
  'GET /api/v2/mix/position/single-position': { limit: 10, windowMs: 1000 },
  'GET /api/v2/mix/order/detail': { limit: 10, windowMs: 1000 },
  'GET /api/v2/mix/order/orders-pending': { limit: 10, windowMs: 1000 },
  'GET /api/v2/mix/order/orders-history': { limit: 10, windowMs: 1000 },
  'GET /api/v2/mix/order/orders-plan-pending': { limit: 10, windowMs: 1000 },
  'GET /api/v2/mix/order/orders-plan-history': { limit: 10, windowMs: 1000 },
  'GET /api/v2/mix/account/accounts': { limit: 10, windowMs: 1000 },
  'GET /api/v2/mix/account/account': { limit: 10, windowMs: 1000 },
  'GET /api/v2/spot/account/info': { limit: 1, windowMs: 1000 },
  'GET /api/v2/mix/order/fills': { limit: 10, windowMs: 1000 },
  'GET /api/v2/mix/account/bill': { limit: 10, windowMs: 1000 },
};

/**
 * Bybit's WebSocket order entry (/v5/trade): 3000 order requests / s per address, answered 10403
 * (docs/v5/websocket/trade/guideline.mdx), apart from the HTTP ceiling; at most 500 new connections per
 * address in 5 minutes (docs/v5/rate-limit/rate-limit.mdx "Websocket IP limit", docs/v5/websocket/wss-authentication.mdx).
 */
export const tradeSocketLimits = {
  ordersPerIp: { limit: 3000, windowMs: 1000 },
  newConnectionsPerIp: { limit: 500, windowMs: 5 * 60_000 },
} as const satisfies Record<string, LimitRule>;

/**
 * Bitget's private WebSocket (wss://ws.bitget.com/v2/ws/private), bitget.com/api-doc/common/websocket-intro:
 * "Connection limit: 300 connection requests/IP/5min, Max 100 connections/IP; Subscription limit: 240
 * subscription requests/Hour/connection, Max 1000 channel subscription/connection ... The Websocket server
 * accepts up to 10 messages per second" (the older text of the page: "100 connections per IP", "240 times per
 * hour"; both readings apply here, the stricter of each).
 */
export interface BitgetStreamLimits {
  /** Connections open at once per address. */
  connectionsPerIp: number;
  newConnectionsPerIp: LimitRule;
  /** Client frames (string "ping" included) per connection: past it the connection is cut. */
  messagesPerConnection: LimitRule;
  subscribeRequestsPerConnection: LimitRule;
  channelsPerConnection: number;
  /** No string "ping" for this long cuts the connection (strictness bitgetStreamKeepalive30s: 30 s, else 2 min). */
  pingTimeoutMs?: number;
  /** No subscription this long after connecting cuts it (strictness bitgetStreamKeepalive30s: 30 s, else never). */
  subscribeTimeoutMs?: number;
  /** "Websocket will be forcibly disconnected every 24 hours". */
  maxLifetimeMs: number;
}

export const bitgetStreamLimits: BitgetStreamLimits = {
  connectionsPerIp: 100,
  newConnectionsPerIp: { limit: 300, windowMs: 5 * 60_000 },
  messagesPerConnection: { limit: 10, windowMs: 1000 },
  subscribeRequestsPerConnection: { limit: 240, windowMs: 60 * 60_000 },
  channelsPerConnection: 1000,
  maxLifetimeMs: 24 * 60 * 60_000,
};
