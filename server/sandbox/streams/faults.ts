import type { Random } from '../random';
import type { ExchangeId } from '../types';

/**
 * A fault of the private streams (control `PUT /control/streams/faults`); unset scope fields match every
 * socket. Rules stay until replaced or cleared. Draws come from the sandbox seed.
 */
export interface StreamFaultRule {
  exchange?: ExchangeId;
  /** Account uid or api key (a socket matches once it has authenticated as that account). */
  account?: string;
  /** Each pushed event is held this long before it is sent (fixed ms, or uniform between min and max); order is kept. */
  delayMs?: number | { min: number; max: number };
  /** Share (0..1) of pushed events sent twice in a row. */
  duplicateShare?: number;
  /** The socket stays open and sends nothing: pushes, answers and pongs are lost while the rule holds. */
  stall?: boolean;
}

/** What happens to one frame on its way out. */
export interface StreamFaultDecision {
  delayMs: number;
  duplicate: boolean;
  stall: boolean;
}

export interface StreamScope {
  exchange: ExchangeId;
  /** uid and api key of the account the socket authenticated as (none before). */
  accountIds: readonly string[];
}

/** A reconnect refusal under way: new sockets of the exchange (no account) or logins of the account are refused until `until`. */
export interface StreamRefusal {
  exchange?: ExchangeId;
  account?: string;
  until: number;
}

const none: StreamFaultDecision = { delayMs: 0, duplicate: false, stall: false };

function matches(scope: { exchange?: ExchangeId; account?: string }, target: StreamScope): boolean {
  if (scope.exchange && scope.exchange !== target.exchange) return false;
  return !scope.account || target.accountIds.includes(scope.account);
}

/** The private streams' fault rules and reconnect refusals. */
export class StreamFaults {
  private rules: StreamFaultRule[] = [];
  private refusals: StreamRefusal[] = [];

  constructor(private readonly random: Random) {}

  set(rules: StreamFaultRule[]): void {
    this.rules = rules.map((rule) => ({ ...rule }));
  }

  list(): StreamFaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  refuse(refusal: StreamRefusal): void {
    this.refusals.push({ ...refusal });
  }

  /** Refusals still under way at `now`. */
  activeRefusals(now: number): StreamRefusal[] {
    this.refusals = this.refusals.filter((refusal) => refusal.until > now);
    return this.refusals.map((refusal) => ({ ...refusal }));
  }

  /** A new socket (no account yet) is refused by an exchange-wide refusal; a login by one of its account's too. */
  refused(target: StreamScope, now: number): boolean {
    return this.activeRefusals(now).some((refusal) => (target.accountIds.length > 0 || !refusal.account) && matches(refusal, target));
  }

  clear(): void {
    this.rules = [];
    this.refusals = [];
  }

  /** The faults of one frame: `push` for pushed events (delay, duplicate, stall), otherwise an answer (stall only). */
  decide(target: StreamScope, push: boolean): StreamFaultDecision {
    if (this.rules.length === 0) return none;
    let decision = none;
    for (const rule of this.rules) {
      if (!matches(rule, target)) continue;
      if (rule.stall) return { delayMs: 0, duplicate: false, stall: true };
      if (!push) continue;
      const delayMs = decision.delayMs || this.delayOf(rule);
      const duplicate = decision.duplicate || (rule.duplicateShare !== undefined && rule.duplicateShare > 0 && this.random.next() < rule.duplicateShare);
      decision = { delayMs, duplicate, stall: false };
    }
    return decision;
  }

  private delayOf(rule: StreamFaultRule): number {
    if (rule.delayMs === undefined) return 0;
    return typeof rule.delayMs === 'number' ? rule.delayMs : this.random.uniform(rule.delayMs.min, rule.delayMs.max);
  }
}
