import type { BookConfig } from './book';
import type { FaultRule } from './faults';
import { liquidationPrices } from './liquidation';
import { marginSummary, USDT } from './margin';
import { findMarket, markets } from './markets';
import type { Quote } from './prices';
import type { AccountInput, Sandbox, TradeSocketHandle } from './sandbox';
import { withStrictness, type Strictness } from './strictness';
import { orderState, positionState, type AccountState, type AccountUpdate, type CounterState, type Credentials, type StreamDrop } from './control-state';
import type { StreamFaultRule } from './streams/faults';
import type { Account } from './types';

export type { AccountState, AccountUpdate, CounterState, Credentials, OrderState, PositionState, StreamDrop } from './control-state';

export interface FundingState {
  intervalMs: number;
  /** When the next settlement falls due (exchange clock, ms epoch). */
  nextAt: number;
  rates: Record<string, number>;
}

/** In-process handle with the operations of the control endpoint (the HTTP routes call these too). */
export class SandboxControl {
  constructor(private readonly sandbox: Sandbox) {}

  createAccount(input: AccountInput): Credentials {
    const account = this.sandbox.createAccount(input);
    return { exchange: account.exchange, uid: account.uid, apiKey: account.apiKey, secret: account.secret, passphrase: account.passphrase };
  }

  updateAccount(uid: string, update: AccountUpdate): AccountState {
    const account = this.require(uid);
    if (update.label !== undefined) account.label = update.label;
    if (update.permissions) account.permissions = { ...account.permissions, ...update.permissions };
    if (update.ips) account.ips = [...update.ips];
    if (update.positionMode) {
      account.defaultPositionMode = update.positionMode;
      account.positionModes.clear();
    }
    if (update.marginMode) {
      account.defaultMarginMode = update.marginMode;
      account.marginModes.clear();
    }
    if (update.marginShort !== undefined) account.marginShort = update.marginShort;
    return this.account(uid);
  }

  deleteAccount(uid: string): void {
    this.sandbox.deleteAccount(this.require(uid));
  }

  /** Adds (or with a negative amount removes) wallet balance; answers the new balance. */
  fund(uid: string, amount: number, coin = USDT): number {
    if (!Number.isFinite(amount)) throw new Error('amount must be a number');
    const account = this.require(uid);
    const next = (account.balances.get(coin) ?? 0) + amount;
    account.balances.set(coin, next);
    this.sandbox.engine.walletChanged(account);
    return next;
  }

  /** Sets "the price" of a symbol: last, mark and index together (triggers and liquidations run at once); answers the last price. */
  setPrice(symbol: string, price: number): number {
    this.sandbox.prices.set(this.symbol(symbol), price);
    return this.sandbox.prices.get(symbol);
  }

  /** Sets the last, mark or index price apart (any of them; the others stay); answers the three. */
  setQuote(symbol: string, update: Partial<Quote>): Quote {
    this.sandbox.prices.setQuote(this.symbol(symbol), update);
    return { ...this.sandbox.prices.quote(symbol) };
  }

  /** Last prices of every symbol. */
  prices(): Record<string, number> {
    return this.sandbox.prices.all();
  }

  /** Last, mark and index price of every symbol. */
  quotes(): Record<string, Quote> {
    return this.sandbox.prices.allQuotes();
  }

  /** Funding rate (of one symbol, or of all) and interval; answers the schedule. */
  setFunding(update: { rate?: number; symbol?: string; intervalMs?: number }): FundingState {
    if (update.symbol !== undefined) this.symbol(update.symbol);
    this.sandbox.funding.configure(update, this.sandbox.now());
    return this.funding();
  }

  funding(): FundingState {
    const { funding } = this.sandbox;
    return { intervalMs: funding.interval(), nextAt: funding.next(), rates: Object.fromEntries(markets.map((market) => [market.symbol, funding.rate(market.symbol)])) };
  }

  /** Books one funding settlement now, whatever the schedule; answers how many positions paid or received. */
  settleFunding(): number {
    return this.sandbox.funding.settle(this.sandbox.now());
  }

  /** How far the exchange's clock runs ahead of the sandbox's base clock (negative: behind); answers the exchange's time. */
  setClockOffset(ms: number): { offsetMs: number; now: number } {
    if (!Number.isFinite(ms) || Math.abs(ms) > 86_400_000) throw new Error('offsetMs must be a number of ms within a day');
    this.sandbox.clockOffsetMs = ms;
    return this.clock();
  }

  clock(): { offsetMs: number; now: number } {
    return { offsetMs: this.sandbox.clockOffsetMs, now: this.sandbox.now() };
  }

  /** Random-walk steps, for one symbol or all; answers the new prices. */
  step(symbol?: string, steps = 1): Record<string, number> {
    const symbols = symbol ? [this.symbol(symbol)] : markets.map((market) => market.symbol);
    for (let i = 0; i < steps; i += 1) for (const name of symbols) this.sandbox.prices.step(name);
    return this.prices();
  }

  startRandomWalk(symbols?: string[], intervalMs = 1000): string[] {
    this.sandbox.prices.startWalk(symbols?.map((name) => this.symbol(name)), intervalMs);
    return this.sandbox.prices.walking();
  }

  stopRandomWalk(symbols?: string[]): string[] {
    this.sandbox.prices.stopWalk(symbols?.map((name) => this.symbol(name)));
    return this.sandbox.prices.walking();
  }

  setFaults(rules: FaultRule[]): FaultRule[] {
    this.sandbox.faults.set(rules);
    return this.sandbox.faults.list();
  }

  faults(): FaultRule[] {
    return this.sandbox.faults.list();
  }

  reset(): void {
    this.sandbox.reset();
  }

  accounts(): AccountState[] {
    return [...this.sandbox.accounts.keys()].map((uid) => this.account(uid));
  }

  account(uidOrKey: string): AccountState {
    const account = this.require(uidOrKey);
    const summary = marginSummary(account, (name) => this.sandbox.prices.mark(name));
    return {
      exchange: account.exchange,
      uid: account.uid,
      apiKey: account.apiKey,
      label: account.label,
      origin: account.origin,
      permissions: { ...account.permissions },
      ips: [...account.ips],
      positionMode: account.defaultPositionMode,
      marginMode: account.defaultMarginMode,
      marginShort: account.marginShort,
      balances: Object.fromEntries(account.balances),
      equity: summary.equity,
      available: summary.available,
      positions: [...account.positions.values()]
        .filter((position) => position.side)
        .map((position) => positionState(account, position, liquidationPrices(account, position, (name) => this.sandbox.prices.mark(name))?.liq ?? 0)),
      orders: account.orders.map(orderState),
    };
  }

  counters(): CounterState {
    const { counters } = this.sandbox;
    const byIp = Object.fromEntries(counters.rejectedByIp);
    const byAccount = Object.fromEntries(counters.rejectedByAccount);
    const total = [...counters.rejectedByIp.values(), ...counters.rejectedByAccount.values()].reduce((a, b) => a + b, 0) + counters.forcedRateLimits;
    return {
      requestsByIp: Object.fromEntries(counters.requestsByIp),
      requestsByAccount: Object.fromEntries(counters.requestsByAccount),
      rateLimitRejections: { byIp, byAccount, forced: counters.forcedRateLimits, total },
      ipBans: Object.fromEntries([...this.sandbox.bans].filter(([, endsAt]) => endsAt > this.sandbox.now())),
      tradeSockets: { opened: counters.tradeConnections, open: this.sandbox.tradeSockets.size, refusedByIp: Object.fromEntries(counters.tradeConnectionsRefused) },
      privateStreams: { opened: { ...counters.streamConnections }, open: this.openStreams(), refusedByAddress: Object.fromEntries(counters.streamConnectionsRefused) },
    };
  }

  private openStreams(): Record<'bybit' | 'bitget', number> {
    const open = { bybit: 0, bitget: 0 };
    for (const socket of this.sandbox.streamSockets) open[socket.exchange] += 1;
    return open;
  }

  /** Changes the order book of one symbol, or of every symbol without one of its own; answers every symbol's book. */
  setBook(update: Partial<BookConfig>, symbol?: string): Record<string, BookConfig> {
    this.sandbox.books.set(update, symbol === undefined ? undefined : this.symbol(symbol));
    return this.books();
  }

  books(): Record<string, BookConfig> {
    return this.sandbox.books.all();
  }

  /** Switches unverified rows between the stricter reading (true) and the lenient one; answers all switches. */
  setStrictness(update: Partial<Strictness>): Strictness {
    this.sandbox.strictness = withStrictness(this.sandbox.strictness, update);
    return this.strictness();
  }

  strictness(): Strictness {
    return { ...this.sandbox.strictness };
  }

  /** Bybit ban length for addresses over the per-IP ceiling (ms); `liftBans` ends the bans under way. */
  setIpBan(ms: number): number {
    if (!(ms >= 0)) throw new Error('ipBanMs must be 0 or more');
    this.sandbox.ipBanMs = ms;
    return ms;
  }

  liftBans(): void {
    this.sandbox.bans.clear();
  }

  /** One-way latency (ms) of every HTTP request and answer and every WebSocket frame; `reset` goes back to the start option. */
  setLatency(ms: number): number {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new Error('latencyMs must be 0 or more');
    this.sandbox.latencyMs = ms;
    return ms;
  }

  latency(): number {
    return this.sandbox.latencyMs;
  }

  /** Cuts the open Bybit /v5/trade sockets (of one account uid or api key, or all) as a network drop would; answers how many. */
  dropTradeSockets(uidOrKey?: string): number {
    const chosen = this.tradeSockets(uidOrKey);
    for (const socket of chosen) socket.drop();
    return chosen.length;
  }

  /**
   * The trade service behind the open Bybit /v5/trade sockets (of one account, or all) restarts: each answers
   * every later order op 10019 until the client opens a new connection (D10); answers how many.
   */
  restartTradeSockets(uidOrKey?: string): number {
    const chosen = this.tradeSockets(uidOrKey);
    for (const socket of chosen) socket.restart();
    return chosen.length;
  }

  private tradeSockets(uidOrKey: string | undefined): TradeSocketHandle[] {
    const wanted = uidOrKey === undefined ? undefined : this.require(uidOrKey);
    return [...this.sandbox.tradeSockets].filter((socket) => !wanted || socket.account() === wanted);
  }

  /**
   * Cuts private sockets at once as a network drop would (all, one exchange's, or one account's), then refuses
   * reconnects for `refuseMs` of sandbox time if given; answers how many were cut.
   */
  dropStreams(drop: StreamDrop = {}): number {
    const wanted = drop.account === undefined ? undefined : this.require(drop.account);
    if (wanted && drop.exchange && wanted.exchange !== drop.exchange) throw new Error(`Account ${wanted.uid} is not a ${drop.exchange} account`);
    const chosen = [...this.sandbox.streamSockets].filter((socket) => (!drop.exchange || socket.exchange === drop.exchange) && (!wanted || socket.account() === wanted));
    for (const socket of chosen) socket.drop();
    if (drop.refuseMs !== undefined) {
      if (!(drop.refuseMs >= 0)) throw new Error('refuseMs must be 0 or more');
      const scope = wanted ? { exchange: wanted.exchange, account: wanted.uid } : { exchange: drop.exchange };
      this.sandbox.streamFaults.refuse({ ...scope, until: this.sandbox.now() + drop.refuseMs });
    }
    return chosen.length;
  }

  /** What the account's private sockets are subscribed to (Bybit topics, Bitget args as JSON), sorted: tests wait on it. */
  streamSubscriptions(uidOrKey: string): string[] {
    return this.sandbox.streams.subscriptionsOf(this.require(uidOrKey).uid);
  }

  /** Replaces the private streams' fault rules (delay, duplicate, stall); answers them. */
  setStreamFaults(rules: StreamFaultRule[]): StreamFaultRule[] {
    this.sandbox.streamFaults.set(rules);
    return this.sandbox.streamFaults.list();
  }

  streamFaults(): { rules: StreamFaultRule[]; refusals: Array<{ exchange?: string; account?: string; until: number }> } {
    return { rules: this.sandbox.streamFaults.list(), refusals: this.sandbox.streamFaults.activeRefusals(this.sandbox.now()) };
  }

  /** Ends the reconnect refusals under way and the fault rules. */
  clearStreamFaults(): void {
    this.sandbox.streamFaults.clear();
  }

  state(): { prices: Record<string, number>; accounts: AccountState[]; counters: CounterState; faults: FaultRule[] } {
    return { prices: this.prices(), accounts: this.accounts(), counters: this.counters(), faults: this.faults() };
  }

  private require(uidOrKey: string): Account {
    const account = this.sandbox.find(uidOrKey);
    if (!account) throw new Error(`No sandbox account ${uidOrKey}`);
    return account;
  }

  private symbol(name: string): string {
    if (!findMarket(name)) throw new Error(`Unknown symbol ${name}`);
    return name;
  }
}
