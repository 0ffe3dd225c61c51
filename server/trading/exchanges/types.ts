/**
 * What the trading engine needs from an exchange. Implemented with ccxt for Bybit (V5, linear USDT
 * perpetuals) and Bitget (V2, USDT-M futures). Symbols are exchange ids without separators
 * (BTCUSDT); quantities are in base currency; prices in USDT.
 */
import type { OrderKind } from './client-order-id';

export type ExchangeId = 'bybit' | 'bitget';
export type PositionSide = 'long' | 'short';
export type PositionModeName = 'oneway' | 'hedge';
export type MarginModeName = 'cross' | 'isolated';
export type { OrderKind };

export interface Credentials {
  apiKey: string;
  secret: string;
  /** Bitget only. */
  passphrase?: string | undefined;
  /**
   * Set by background work (the periodic key and wallet sync): every request made with these credentials
   * counts against the address's background share too (see BACKGROUND_SHARE).
   */
  background?: true | undefined;
  /**
   * Set for the requests an entry makes before its order is sent (its account's settings): epoch ms
   * after which they are useless, so the limiter refuses them unsent once it has passed or when a ban
   * outlasts it (as it does the entry order itself, `EntryRequest.deadlineAt`).
   */
  deadline?: number | undefined;
}

export interface MarketInfo {
  symbol: string;
  /** ccxt's unified symbol, e.g. BTC/USDT:USDT. */
  ccxtSymbol: string;
  minQty: number;
  qtyStep: number;
  tickSize: number;
  minNotional: number;
  maxLeverage: number;
  /** The largest market order (Bybit lotSizeFilter.maxMktOrderQty, Bitget maxMarketOrderQty); Infinity when not given. */
  maxMarketQty: number;
}

/** A position taken over by the exchange's liquidation: the quantity and its average (bankruptcy) price. */
export interface Liquidation {
  quantity: number;
  price: number;
}

/** One tier of a symbol's risk limit: positions up to `maxValue` USDT may be held at up to `maxLeverage`. */
export interface RiskTier {
  maxValue: number;
  maxLeverage: number;
  /** Maintenance margin rate of the tier (Bybit maintenanceMargin, Bitget keepMarginRate). */
  maintenanceRate: number;
}

export interface PlacedOrder {
  clientOrderId: string;
  exchangeOrderId: string | undefined;
  status: 'open' | 'closed' | 'canceled' | 'rejected' | 'unknown';
  filledQty: number;
  avgPrice: number | undefined;
  fee: number | undefined;
}

export interface Position {
  symbol: string;
  side: PositionSide;
  size: number;
  entryPrice: number;
  markPrice: number | undefined;
  unrealizedPnl: number | undefined;
  leverage: number | undefined;
  hedged: boolean;
  stopLossPrice: number | undefined;
  /** The position's margin mode as the exchange reports it. */
  marginMode?: MarginModeName | undefined;
}

export interface Balance {
  total: number;
  free: number;
  used: number;
}

export interface KeyCheck {
  valid: boolean;
  canTrade: boolean;
  canWithdraw: boolean;
  ipBound: boolean;
  positionMode: PositionModeName | undefined;
  /** Bybit: the account-wide UTA margin mode (portfolio margin counts as cross); Bitget's is per symbol, not reported. */
  marginMode?: MarginModeName | undefined;
  error: string | undefined;
  /**
   * Answers the exchange could not give for this key (a Bitget key without spot read permission
   * cannot read its own permissions and IP binding): reported false, not known to be false.
   */
  unverified?: ReadonlyArray<'canWithdraw' | 'ipBound'> | undefined;
}

export interface EntryRequest {
  symbol: string;
  side: PositionSide;
  quantity: number;
  clientOrderId: string;
  positionMode: PositionModeName;
  /**
   * Attached to the entry when given. Where `sizedEntryProtection` is true (Bybit, tpslMode Partial)
   * it is sized to what the entry fills and belongs to it; otherwise (Bitget) it is the position's stop.
   */
  stopLossPrice?: number;
  /** A take-profit sized to the fill, attached where `sizedEntryProtection` is true; ignored elsewhere. */
  takeProfitPrice?: number;
  /**
   * Epoch ms after which the entry must not be sent: waiting for the rate limiter past it, or for an
   * address ban that outlasts it, fails with a final `deadline` failure instead of placing it late.
   */
  deadlineAt?: number;
}

export interface ReduceRequest {
  symbol: string;
  /** Side of the position being reduced. */
  side: PositionSide;
  quantity: number;
  clientOrderId: string;
  positionMode: PositionModeName;
}

export interface TakeProfitRequest extends ReduceRequest {
  triggerPrice: number;
}

/** A sized, reduce-only stop loss of one execution (a conditional order with our client id). */
export type StopLossRequest = TakeProfitRequest;

/** A take-profit or stop loss the exchange made from an entry's attached levels: it carries no client id of ours. */
export interface AttachedLeg {
  exchangeOrderId: string;
  kind: 'takeProfit' | 'stopLoss';
  triggerPrice: number;
  /** 0 when it closes the whole position. */
  quantity: number;
  /** Sized to its entry's fill (Bybit Partial), or covering the whole position (Bitget pos_loss / pos_profit). */
  sized: boolean;
  /** Bitget's planType, needed to cancel it. */
  planType: string | undefined;
}

export interface TrailingStopRequest extends ReduceRequest {
  activationPrice: number;
  /** Callback distance: percent of price (0.01-10) or a price distance in USDT. */
  callback: { type: 'percent' | 'price'; value: number };
}

/** Order-entry sessions of an adapter (Bybit /v5/trade; always zero on Bitget, which trades over REST). */
export interface SessionWarmth {
  /** Accounts asked to be warm. */
  wanted: number;
  open: number;
  /** Waiting to (re)open: for the per-address new-connection budget, or backing off after a failure. */
  waiting: number;
  /** Connections opened since start, reopenings included. */
  opened: number;
  failures: number;
}

/** How an entry order leaves: over the account's order-entry socket (Bybit /v5/trade), or REST. */
export type EntryChannel = 'websocket' | 'rest';

/** The address's order-entry window an adapter sends socket orders under (Bybit /v5/trade: 3,000 a second per address). */
export interface OrderEntryWindow {
  egress: string;
  /** This process's part of it, 0 to 1: the processes sending socket orders from one address split it; 0 sends over REST. */
  share(part: number): void;
}

/**
 * What a warm account's private stream tells the engine: what it should look at again now, instead of
 * at its next periodic check.
 */
export interface AccountNews {
  /** Our orders that the exchange finished (filled, cancelled, rejected) other than entries and closes being placed. */
  clientOrderIds: string[];
  /** Symbols whose position shrank (a take-profit or stop, a close by hand, a liquidation) or lost an order not of ours. */
  symbols: string[];
  /** The stream came back and caught up after a drop: everything of the account is due for a check. */
  resynced: boolean;
}

/** A conditional order or plan the exchange lists as live (the reconciler looks for legs nobody owns). */
export interface LiveOrder {
  symbol: string;
  /** '' when it carries none (an entry's attached TP/SL, the customer's own). */
  clientOrderId: string;
  exchangeOrderId: string;
  /** When the exchange created it (ms). */
  createdAt: number;
}

/**
 * One entry of the account's own books on a symbol (LIVE-FIDELITY D12): a trade with its fee, or a funding
 * settlement. `paid` is what left the account (negative: received).
 */
export interface CostRecord {
  kind: 'trade' | 'funding';
  /** The exchange's id of the trade's order, and ours where the record carries it ('' otherwise, and for funding). */
  orderId: string;
  clientOrderId: string;
  /** The position side it belongs to; null where the record does not say (Bitget one-way fills, funding bills). */
  side: PositionSide | null;
  time: number;
  paid: number;
  /**
   * What a trade added to its side's size (negative: took off); for a record without a side, a buy's
   * quantity (a sell's negative). 0 for funding.
   */
  sizeChange: number;
}

/** What GET /metrics reports of one adapter: its kept connections and its addresses' request windows in this process. */
export interface AdapterHealth {
  tradeSessions: { wanted: number; open: number };
  privateStreams: { wanted: number; open: number; synced: number };
  /** Per outgoing address: the per-IP window's ceiling and what it holds now. */
  addresses: Array<{ egress: string; limit: number; windowMs: number; inWindow: number; waiting: number }>;
}

export interface ExchangeAdapter {
  readonly exchange: ExchangeId;
  /** Set where this adapter sends orders over an order-entry socket counted per address. */
  readonly orderEntryWindow?: OrderEntryWindow | undefined;
  /** The channel this account's next entry would take now (its session open or not). */
  entryChannel(credentials: Credentials): EntryChannel;
  /**
   * Opens an order-entry session for each account that has none, ahead of alerts (Bybit: one
   * authenticated /v5/trade socket per account, kept open and reopened after drops; orders of accounts
   * without an open session go over REST). Resolves once each account had its first attempt.
   */
  warmSessions(accounts: readonly Credentials[]): Promise<SessionWarmth>;
  /**
   * Reads ahead what an order must carry that the exchange keeps per account and symbol (Bitget: the
   * position mode and each symbol's margin mode, LIVE-FIDELITY B3), so the first entry after a start
   * needs no read of its own. Nothing to do where orders need no such read (Bybit). Resolves true when
   * it sent a read (terms already known send nothing).
   */
  warmAccountTerms(credentials: Credentials, symbols: readonly string[]): Promise<boolean>;
  /** Closes the sessions of these accounts, or all (process shutdown); they are not reopened. */
  closeSessions(accounts?: readonly Credentials[]): void;
  /** Connections and request windows of this process, read by GET /metrics (absent: nothing to report). */
  health?(): AdapterHealth;
  /**
   * `count` requests (an alert's entries, or what follows them) are about to go out: when this process's
   * part of the address's window cannot take them, it asks for more now (see ExchangeRateLimiter.prepare).
   */
  expectRequests(count: number): void;
  /** Whether TP/SL attached to an entry are sized to its fill (they then belong to that entry alone). */
  readonly sizedEntryProtection: boolean;
  /** Cached per process; `refresh` reloads. */
  loadMarkets(refresh?: boolean): Promise<Map<string, MarketInfo>>;
  market(symbol: string): Promise<MarketInfo>;
  /**
   * The symbol's risk-limit tiers, smallest first (cached per process; Bybit market/risk-limit, Bitget
   * query-position-lever). With a `deadline` (an entry's, epoch ms), a read still under way is given up
   * at it, or at once when an address ban outlasts it: a final `deadline` failure.
   */
  riskTiers(symbol: string, deadline?: number): Promise<RiskTier[]>;
  fetchBalance(credentials: Credentials): Promise<Balance>;
  /** Never changes the margin mode; Bitget isolated + hedge accounts get both sides' leverage (holdSide). */
  setLeverage(credentials: Credentials, symbol: string, leverage: number): Promise<void>;
  /**
   * Reads the mode first and changes it only when it differs. Bitget: product-wide; when the exchange
   * refuses the change because something is open (40920), a hedge account keeps hedge mode for a one-way
   * strategy (orders go to its long or short slot), and a one-way account asked for hedge fails (final).
   */
  setPositionMode(credentials: Credentials, symbol: string, mode: PositionModeName): Promise<void>;
  placeEntry(credentials: Credentials, request: EntryRequest): Promise<PlacedOrder>;
  placeTakeProfit(credentials: Credentials, request: TakeProfitRequest): Promise<PlacedOrder>;
  placeTrailingStop(credentials: Credentials, request: TrailingStopRequest): Promise<PlacedOrder>;
  /**
   * Sets or moves the position's stop loss (e.g. to the entry price after TP1). "Not modified" is
   * success; a stop the market has passed is a final `level_passed` failure.
   */
  setStopLoss(credentials: Credentials, request: { symbol: string; side: PositionSide; price: number; positionMode: PositionModeName }): Promise<void>;
  /** A stop loss of `quantity` only (reduce-only), with our client id: one execution's stop. */
  placeStopLoss(credentials: Credentials, request: StopLossRequest): Promise<PlacedOrder>;
  /**
   * The TP/SL of a position that the exchange made from entries' attached levels (none has our client
   * id): the open ones, and with `includeDone` the recently triggered or cancelled ones too. `overRest`:
   * never from the stream (to confirm that one the stream does not show is really gone).
   */
  findAttachedLegs(credentials: Credentials, position: { symbol: string; side: PositionSide; positionMode: PositionModeName }, includeDone?: boolean, overRest?: boolean): Promise<AttachedLeg[]>;
  /** Cancels an attached TP/SL (already gone is fine). */
  cancelAttachedLeg(credentials: Credentials, symbol: string, leg: Pick<AttachedLeg, 'exchangeOrderId' | 'planType'>): Promise<void>;
  /** Looks an attached TP/SL (or any order) up by the exchange's id; null when the exchange has none. */
  fetchOrderById(credentials: Credentials, symbol: string, exchangeOrderId: string): Promise<PlacedOrder | null>;
  /** `kind` defaults to what our id names (`orderKindOf`); it decides where the exchange is asked. */
  cancelOrder(credentials: Credentials, symbol: string, clientOrderId: string, kind?: OrderKind): Promise<void>;
  /** Reduce-only market close of the whole position (or `quantity`); null when there is no position. */
  closePosition(credentials: Credentials, request: Omit<ReduceRequest, 'quantity'> & { quantity?: number }): Promise<PlacedOrder | null>;
  /** From the account's stream while it is synced, else over REST. */
  fetchPositions(credentials: Credentials, symbols?: string[]): Promise<Position[]>;
  /** Always over REST: the exchange's answer now, whatever the stream has delivered so far. */
  readPositions(credentials: Credentials, symbols?: string[]): Promise<Position[]>;
  /**
   * Looks an order up by our client order id with at most two reads; null when the exchange has none.
   * `kind` defaults to what our id names (`orderKindOf`).
   */
  fetchOrderByClientId(credentials: Credentials, symbol: string, clientOrderId: string, kind?: OrderKind): Promise<PlacedOrder | null>;
  checkKey(credentials: Credentials): Promise<KeyCheck>;
  /**
   * Every live conditional order and TP/SL plan of the account's USDT perpetuals, over REST (Bybit
   * `order/realtime` StopOrder, Bitget `orders-plan-pending` profit_loss, every page): where our legs live.
   */
  fetchLiveOrders(credentials: Credentials): Promise<LiveOrder[]>;
  /** What the exchange's liquidation took of the position on `side` since `since` (ms), over REST; null when none. */
  findLiquidation(credentials: Credentials, symbol: string, side: PositionSide, since: number): Promise<Liquidation | null>;
  /**
   * The account's trade fees and funding settlements on `symbol` from `since` to `until` (ms), oldest first,
   * over REST at background priority, every page of each week-long window the exchange allows (LIVE-FIDELITY D12).
   */
  costRecords(credentials: Credentials, symbol: string, since: number, until: number): Promise<CostRecord[]>;
  /** Whether the account's reads are answered by its private stream now (they then cost no request). */
  readsFromStream(credentials: Credentials): boolean;
  /** Listens to the warm accounts' private streams (nothing is called where there are none). */
  onAccountNews(listener: (credentials: Credentials, news: AccountNews) => void): void;
  /** Resolves once the account's stream shows the order done (filled, cancelled, rejected); undefined when it cannot tell in time. */
  settledOrder(credentials: Credentials, clientOrderId: string, timeoutMs: number): Promise<PlacedOrder | undefined>;
}

export type FailureCode =
  | 'network'
  | 'timeout'
  | 'rate_limit'
  | 'server'
  | 'auth'
  | 'ip_not_allowed'
  | 'permission'
  | 'insufficient_balance'
  | 'below_minimum'
  | 'duplicate'
  | 'not_found'
  | 'no_position'
  /** A take-profit (or other trigger) the market has already crossed: execute that level at market instead. */
  | 'trigger_crossed'
  /** A stop loss on the wrong side of the market (the level is already passed): close at market instead. */
  | 'level_passed'
  /** The request was not sent: its deadline passed while it waited (the rate limiter, an address ban). */
  | 'deadline'
  /** The order book had nothing to fill a market order with (Bitget 22045): nothing happened, try again later. */
  | 'no_liquidity'
  /** Over the symbol's risk limit: the position's value at this leverage, or a market order above its maximum size. */
  | 'risk_limit'
  | 'invalid_request';

/** Every adapter error is one of these: retryable (try again within the deadline) or final. */
export class ExchangeFailure extends Error {
  constructor(
    readonly code: FailureCode,
    readonly retryable: boolean,
    /** A sentence a staff member can act on, e.g. "The API key is not valid: ask the customer to reconnect". */
    readonly staffMessage: string,
    readonly exchangeCode?: string,
  ) {
    super(staffMessage);
    this.name = 'ExchangeFailure';
  }
}

/** Adapter for a customer's platformType (1 Bitget, 2 Bybit); undefined for exchanges we do not trade. */
export type AdapterLookup = (platformType: number) => ExchangeAdapter | undefined;
