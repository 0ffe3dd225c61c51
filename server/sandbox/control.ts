import type { FaultRule } from './faults';
import { marginSummary, USDT } from './margin';
import { findMarket, markets } from './markets';
import type { AccountInput, Sandbox } from './sandbox';
import type { Account, MarginMode, Order, Permissions, Position, PositionMode } from './types';

export interface Credentials {
  exchange: Account['exchange'];
  uid: string;
  apiKey: string;
  secret: string;
  /** Bitget only ('' for Bybit). */
  passphrase: string;
}

export interface AccountUpdate {
  label?: string;
  permissions?: Partial<Permissions>;
  ips?: string[];
  positionMode?: PositionMode;
  marginMode?: MarginMode;
}

export interface OrderState {
  id: string;
  clientOrderId: string;
  symbol: string;
  side: Order['side'];
  type: Order['type'];
  kind: Order['kind'];
  status: Order['status'];
  qty: number;
  price: number;
  filledQty: number;
  avgPrice: number;
  fee: number;
  reduceOnly: boolean;
  positionIdx: Order['positionIdx'];
  triggerPrice: number;
  /** Preset TP/SL carried by an entry order (0 when none). */
  takeProfit: number;
  stopLoss: number;
  labels: Record<string, string>;
  createdAt: number;
}

export interface PositionState {
  symbol: string;
  positionIdx: Position['idx'];
  side: 'long' | 'short';
  size: number;
  entryPrice: number;
  leverage: { long: number; short: number };
  realisedPnl: number;
  takeProfit: number;
  stopLoss: number;
  trailing?: Position['trailing'];
}

export interface AccountState {
  exchange: Account['exchange'];
  uid: string;
  apiKey: string;
  label: string;
  origin: Account['origin'];
  permissions: Permissions;
  ips: string[];
  positionMode: PositionMode;
  marginMode: MarginMode;
  balances: Record<string, number>;
  equity: number;
  available: number;
  positions: PositionState[];
  orders: OrderState[];
}

export interface CounterState {
  requestsByIp: Record<string, number>;
  requestsByAccount: Record<string, number>;
  rateLimitRejections: { byIp: Record<string, number>; byAccount: Record<string, number>; forced: number; total: number };
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
    return next;
  }

  setPrice(symbol: string, price: number): number {
    this.sandbox.prices.set(symbol, price);
    return this.sandbox.prices.get(symbol);
  }

  prices(): Record<string, number> {
    return this.sandbox.prices.all();
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
    const summary = marginSummary(account, (name) => this.sandbox.prices.get(name));
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
      balances: Object.fromEntries(account.balances),
      equity: summary.equity,
      available: summary.available,
      positions: [...account.positions.values()].filter((position) => position.side).map((position) => positionState(account, position)),
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
    };
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

function orderState(order: Order): OrderState {
  return {
    id: order.id,
    clientOrderId: order.clientId,
    symbol: order.symbol,
    side: order.side,
    type: order.type,
    kind: order.kind,
    status: order.status,
    qty: order.qty,
    price: order.price,
    filledQty: order.filledQty,
    avgPrice: order.avgPrice,
    fee: order.fee,
    reduceOnly: order.reduceOnly,
    positionIdx: order.positionIdx,
    triggerPrice: order.triggerPrice,
    takeProfit: order.takeProfit,
    stopLoss: order.stopLoss,
    labels: { ...order.labels },
    createdAt: order.createdAt,
  };
}

function positionState(account: Account, position: Position): PositionState {
  return {
    symbol: position.symbol,
    positionIdx: position.idx,
    side: position.side ?? 'long',
    size: position.size,
    entryPrice: position.entryPrice,
    leverage: { ...(account.leverage.get(position.symbol) ?? { long: 10, short: 10 }) },
    realisedPnl: position.realisedPnl,
    takeProfit: position.takeProfit,
    stopLoss: position.stopLoss,
    trailing: position.trailing ? { ...position.trailing } : undefined,
  };
}
