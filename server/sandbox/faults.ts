import type { ExchangeId } from './types';
import type { Random } from './random';

/** One fault rule of the control endpoint; unset scope fields match everything. */
export interface FaultRule {
  exchange?: ExchangeId;
  /** Path without the mount prefix, e.g. /v5/order/create or /api/v2/mix/order/place-order. */
  route?: string;
  /** HTTP method, or 'WS' for Bybit's /v5/trade order ops (their route is the REST path they stand for, e.g. /v5/order/create). */
  method?: string;
  /** Account uid or api key. */
  account?: string;
  /** Added delay before the request is handled: fixed ms or uniform between min and max. */
  latencyMs?: number | { min: number; max: number };
  /** Share (0..1) answered with an HTTP 5xx without applying the request. */
  errorShare?: number;
  errorStatus?: number;
  /** Share (0..1) applied but answered late (timeoutMs) or never (no timeoutMs: held until the client gives up). */
  timeoutShare?: number;
  timeoutMs?: number;
  /** Share (0..1) refused as rate limited: Bybit retCode 10006, Bitget HTTP 429. */
  rateLimitShare?: number;
  /** Share (0..1, default 1) answered with this exchange error instead of being applied. */
  reject?: { share?: number; code: string; msg: string; httpStatus?: number };
  /**
   * An order the request places is answered at once but stays invisible to order queries (Bybit order/realtime,
   * order/history, execution/list; Bitget detail, lists, fills) for this long, on the exchange's clock: Bybit
   * acknowledges a create asynchronously (create-order.mdx), so a lookup right after the answer can miss it (D6).
   */
  hideOrderMs?: number;
  /** Only the next N matching requests are affected; then the rule is spent. */
  remaining?: number;
}

export type FaultOutcome =
  | { kind: 'none' }
  | { kind: 'serverError'; status: number }
  | { kind: 'timeout'; delayMs: number | undefined }
  | { kind: 'rateLimit' }
  | { kind: 'reject'; code: string; msg: string; httpStatus: number | undefined };

export interface FaultDecision {
  latencyMs: number;
  outcome: FaultOutcome;
  /** How long an order placed by the request stays invisible to queries (0: not at all). */
  hideOrderMs: number;
}

export interface FaultTarget {
  exchange: ExchangeId;
  method: string;
  route: string;
  accountIds: string[];
}

export class FaultBook {
  private rules: FaultRule[] = [];

  constructor(private readonly random: Random) {}

  set(rules: FaultRule[]): void {
    this.rules = rules.map((rule) => ({ ...rule }));
  }

  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  decide(target: FaultTarget): FaultDecision {
    let latencyMs = 0;
    let hideOrderMs = 0;
    let outcome: FaultOutcome = { kind: 'none' };
    for (const rule of this.rules) {
      if (!matches(rule, target) || rule.remaining === 0) continue;
      let used = false;
      if (hideOrderMs === 0 && rule.hideOrderMs) {
        hideOrderMs = rule.hideOrderMs;
        used = true;
      }
      if (latencyMs === 0 && rule.latencyMs !== undefined) {
        latencyMs = typeof rule.latencyMs === 'number' ? rule.latencyMs : this.random.uniform(rule.latencyMs.min, rule.latencyMs.max);
        used = true;
      }
      if (outcome.kind === 'none') {
        const drawn = this.outcomeOf(rule);
        if (drawn.kind !== 'none') {
          outcome = drawn;
          used = true;
        }
      }
      if (used && rule.remaining !== undefined) rule.remaining -= 1;
    }
    return { latencyMs, outcome, hideOrderMs };
  }

  private hit(share: number | undefined): boolean {
    return share !== undefined && share > 0 && this.random.next() < share;
  }

  private outcomeOf(rule: FaultRule): FaultOutcome {
    if (this.hit(rule.errorShare)) return { kind: 'serverError', status: rule.errorStatus ?? 503 };
    if (this.hit(rule.timeoutShare)) return { kind: 'timeout', delayMs: rule.timeoutMs };
    if (this.hit(rule.rateLimitShare)) return { kind: 'rateLimit' };
    if (rule.reject && this.hit(rule.reject.share ?? 1)) {
      return { kind: 'reject', code: String(rule.reject.code), msg: rule.reject.msg, httpStatus: rule.reject.httpStatus };
    }
    return { kind: 'none' };
  }
}

function matches(rule: FaultRule, target: FaultTarget): boolean {
  if (rule.exchange && rule.exchange !== target.exchange) return false;
  if (rule.route && rule.route !== target.route) return false;
  if (rule.method && rule.method.toUpperCase() !== target.method) return false;
  if (rule.account && !target.accountIds.includes(rule.account)) return false;
  return true;
}
