import { exchangeNames } from './errors';
import { ExchangeFailure, type ExchangeId } from './types';

/**
 * Bybit answers HTTP 403 once an address passes 600 requests in 5 s, and asks to stop every session
 * from that address for at least 10 minutes (`docs/v5/rate-limit/rate-limit.mdx`); retrying only
 * prolongs the ban. While an address is banned no request to that exchange leaves from it: requests
 * that can wait, wait for the end of the ban; a request whose deadline ends before the ban is refused
 * at once without being sent (an entry past its deadline is dropped, not placed late). When the ban
 * ends, one request goes first ("at least" 10 minutes: the exchange's may last longer); the others
 * follow once it is answered without a new ban, at the pace of the windows.
 */
export const ADDRESS_BAN_MS: Record<ExchangeId, number> = { bybit: 10 * 60_000, bitget: 10 * 60_000 };

export interface AddressBan {
  exchange: ExchangeId;
  /** The egress name of the banned address (EXCHANGE_EGRESS). */
  egress: string;
  /** Epoch milliseconds. */
  since: number;
  until: number;
  /** What the exchange answered, e.g. "HTTP 403". */
  reason: string;
}

export type AddressBanListener = (ban: AddressBan) => void;

interface BanState {
  ban: AddressBan;
  /** Resolves when the ban (as known when it was created) has run out; made when someone first waits. */
  ended?: Promise<void>;
}

/** The first request after a ban, and what the others wait for: its answer. */
interface Probe {
  sent: boolean;
  answered: Promise<void>;
  answer: () => void;
}

/** Called once the probe's answer is in (or it failed): the requests waiting behind it go on. */
export type ProbeAnswered = () => void;

export class AddressBans {
  private readonly bans = new Map<string, BanState>();
  private readonly probes = new Map<string, Probe>();
  private readonly listeners = new Set<AddressBanListener>();

  constructor(
    private readonly durationMs: Record<ExchangeId, number> = ADDRESS_BAN_MS,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * Records that the exchange has banned the address. Answers true when this starts a new ban (the
   * listeners hear of it then, once); a report during a ban only makes it last from this answer.
   */
  report(exchange: ExchangeId, egress: string, reason: string): boolean {
    const key = `${exchange}:${egress}`;
    const at = this.now();
    const until = at + this.durationMs[exchange];
    const current = this.active(key, at);
    if (current) {
      if (until > current.ban.until) this.bans.set(key, { ban: { ...current.ban, until } });
      return false;
    }
    const ban: AddressBan = { exchange, egress, since: at, until, reason };
    this.bans.set(key, { ban });
    for (const listener of this.listeners) {
      try {
        listener(ban);
      } catch {
        // A failing listener must not stop the others or the request that noticed the ban.
      }
    }
    return true;
  }

  /**
   * A ban another process on this address heard of (shared through PostgreSQL): held here too, without
   * telling the listeners (the process that got the answer audits it).
   */
  adopt(ban: AddressBan): void {
    const key = `${ban.exchange}:${ban.egress}`;
    const at = this.now();
    if (ban.until <= at) return;
    const current = this.active(key, at);
    if (current && current.ban.until >= ban.until) return;
    this.bans.set(key, { ban: current ? { ...current.ban, until: ban.until } : ban });
  }

  /** The ban in force on this address, if any. */
  current(exchange: ExchangeId, egress: string): AddressBan | undefined {
    return this.active(`${exchange}:${egress}`, this.now())?.ban;
  }

  /**
   * Resolves once no ban is in force on the address. With a `deadline` (epoch ms) that ends before
   * the ban does, rejects at once with a final `deadline` failure: the request is not sent at all.
   */
  async clear(exchange: ExchangeId, egress: string, deadline?: number): Promise<void> {
    const key = `${exchange}:${egress}`;
    for (let state = this.active(key, this.now()); state; state = this.active(key, this.now())) {
      if (deadline !== undefined && deadline <= state.ban.until) throw bannedFailure(state.ban);
      state.ended ??= new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, state.ban.until - this.now()) + 1));
      await state.ended;
    }
  }

  /**
   * Right before a request is sent: resolves once no ban is in force and no request that went first
   * after one is still unanswered. Answers the function to call with this request's answer when it is
   * that first request (the probe), else undefined.
   */
  async sendable(exchange: ExchangeId, egress: string, deadline?: number): Promise<ProbeAnswered | undefined> {
    const key = `${exchange}:${egress}`;
    for (;;) {
      await this.clear(exchange, egress, deadline);
      const probe = this.probes.get(key);
      if (!probe) return undefined;
      if (!probe.sent) {
        probe.sent = true;
        return () => {
          if (this.probes.get(key) === probe) this.probes.delete(key);
          probe.answer();
        };
      }
      await probe.answered;
    }
  }

  /** Calls `listener` once for every new ban; answers the function that unsubscribes it. */
  onBan(listener: AddressBanListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private active(key: string, at: number): BanState | undefined {
    const state = this.bans.get(key);
    if (state && state.ban.until > at) return state;
    if (state) {
      this.bans.delete(key);
      if (!this.probes.has(key)) {
        let answer = () => undefined as void;
        const answered = new Promise<void>((resolve) => (answer = resolve));
        this.probes.set(key, { sent: false, answered, answer });
      }
    }
    return undefined;
  }
}

export function bannedFailure(ban: AddressBan): ExchangeFailure {
  const until = new Date(ban.until).toISOString();
  return new ExchangeFailure(
    'deadline',
    false,
    `${exchangeNames[ban.exchange]} has banned requests from this server's address until ${until} (${ban.reason} after the per-address ceiling): nothing is sent until then, and this request's deadline ends before the ban does`,
  );
}
