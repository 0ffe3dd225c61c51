import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { AddressBans } from './address-ban';
import type { ExchangeId } from './types';

/**
 * Each process's part of an exchange's per-address window, kept in PostgreSQL (`share_egress_window`,
 * server/db/functions/egress-budget.sql): what makes processes on one address (EXCHANGE_EGRESS) stay under the
 * exchange's ceiling together, whatever their number.
 *
 * The exchange counts a request when it arrives, somewhere between our grant and its answer, which may be
 * seconds after it was sent (a slow network path, an exchange busy elsewhere, a ban waited out). A
 * process's own sliding window already counts that way: a grant holds its slot until a window after its
 * answer. So the processes split the ceiling into parts, and each sizes its own window to its part: the
 * requests the exchange counts in any of its windows are then at most the sum of the parts. A part is
 * counted in the database until its holder reports that its window has drained below it, so a part
 * moves to another process only once nothing sent under it can still be counted.
 *
 * Parts follow demand: a process whose requests queue wants the whole ceiling, one that does not wants
 * what it uses and a little headroom; the ceiling is shared max-min fair over what the processes want
 * (what nobody wants is split equally, so a process alone on its address may take the whole window). A
 * round per second and address moves the parts (sooner while a part grows or shrinks), and the first
 * request of a burst that finds no room starts one at once: one round trip per burst, none per request.
 */
export interface SharedWindow {
  /** At most `limit` requests in the window from now on (0: none; grants already in it stay counted). */
  resize(limit: number): void;
  /** Requests in the window (in flight, or answered within it), waiting for it, and delayed so far (a running count). */
  usage(): { inWindow: number; waiting: number; delayed: number };
}

export interface WindowShares {
  /** Sizes `window` (this process's window for the exchange and address) to this process's part of `limit`, from now on. */
  share(exchange: ExchangeId, egress: string, ceiling: { limit: number; windowMs: number }, window: SharedWindow): void;
  /** `count` requests are about to leave (an alert's entries): the others hear at once that this process wants more. */
  expect(exchange: ExchangeId, egress: string, count: number): void;
  /** Reports what this process still holds (its last requests stay counted until they left the window) and stops. */
  stop(): Promise<void>;
}

/** Rounds of a part that holds what it should. */
export const ROUND_MS = 1_000;
/** Rounds while a part is still growing towards its fair share or shrinking to it. */
const MOVING_ROUND_MS = 200;
/** No round confirmed for this long: this process sends nothing more (its part may soon lapse for the others). */
export const STALE_MS = 5_000;
/** A lapsed holder's last requests: answered (or timed out, 10 s) and counted by the exchange until then. */
const LAST_ANSWERS_MS = 15_000;
/**
 * What a process that is not queueing holds beyond what is in its window: the first requests of its next
 * burst go at once, the next ones after a round (which the burst's first queued request starts). A
 * process holds no more than that while idle, so a process that dies idle leaves little to lapse.
 */
const HEADROOM_SHARE = 0.05;

interface RoundRow extends Record<string, unknown> {
  may_hold: number;
  fair_part: number;
  banned_since: string | null;
  banned_until: string | null;
  ban_reason: string | null;
}

interface RoundAnswer {
  mayHold: number;
  fairPart: number;
}

type RoundCall = (exchange: ExchangeId, egress: string, report: { wanted: number; held: number; cap: number; ttlMs: number }) => Promise<RoundAnswer>;

export function newHolderName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** One process's part of one exchange's window on one address. */
class WindowPart {
  private limit = 0;
  private mayHold = 0;
  private fairPart = 0;
  private wantedReported = -1;
  private delayedSeen = 0;
  private confirmedAt = -Infinity;
  private nextRoundAt = 0;
  /** Pressed while a round was under way (it may have read the window before the queue formed): another one right after. */
  private pressedMeanwhile = false;
  private running: Promise<void> | undefined;
  private readonly ticker: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly exchange: ExchangeId,
    private readonly egress: string,
    private readonly ceiling: { limit: number; windowMs: number },
    private readonly window: SharedWindow,
    private readonly call: RoundCall,
    private readonly onError: (error: unknown) => void,
  ) {
    window.resize(0);
    this.ticker = setInterval(() => this.tick(), MOVING_ROUND_MS);
    this.ticker.unref?.();
    this.tick();
  }

  /** `count` requests want to leave: a round now unless the database already knows this process wants everything, or they fit. */
  press(count: number): void {
    if (this.wantedReported >= this.ceiling.limit || this.limit - this.window.usage().inWindow >= count) return;
    if (this.running) this.pressedMeanwhile = true;
    this.nextRoundAt = 0;
    this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.ticker);
    await this.running;
    // Counted on until the requests still in the window (answered within it) have left it.
    await this.call(this.exchange, this.egress, { wanted: 0, held: this.window.usage().inWindow, cap: this.ceiling.limit, ttlMs: this.ttlMs() }).catch(this.onError);
  }

  private tick(): void {
    if (this.stopped) return;
    // Our part lapses for the others STALE_MS + the window + LAST_ANSWERS_MS after the last round we know
    // of: without a confirmed round for STALE_MS, nothing more is sent.
    if (performance.now() - this.confirmedAt > STALE_MS) this.setLimit(0);
    if (this.running || performance.now() < this.nextRoundAt) return;
    this.running = this.report().finally(() => {
      this.running = undefined;
      // Shrinking (its window drains below what the database counts), or queueing for more than it got: soon again.
      const moving = this.limit < this.mayHold || (this.wantedReported >= this.ceiling.limit && this.mayHold < this.fairPart);
      this.nextRoundAt = this.pressedMeanwhile ? 0 : performance.now() + (moving ? MOVING_ROUND_MS : ROUND_MS);
      if (this.pressedMeanwhile) {
        this.pressedMeanwhile = false;
        this.tick();
      }
    });
  }

  private async report(): Promise<void> {
    const sentAt = performance.now();
    const usage = this.window.usage();
    const queueing = usage.waiting > 0 || usage.delayed > this.delayedSeen;
    const headroom = Math.max(1, Math.floor(this.ceiling.limit * HEADROOM_SHARE));
    const wanted = queueing ? this.ceiling.limit : Math.min(this.ceiling.limit, usage.inWindow + headroom);
    // What the exchange may still count of ours, and what we may grant until the answer: counted until we report less.
    const held = Math.max(this.limit, usage.inWindow);
    try {
      const answer = await this.call(this.exchange, this.egress, { wanted, held, cap: this.ceiling.limit, ttlMs: this.ttlMs() });
      this.delayedSeen = usage.delayed;
      this.wantedReported = wanted;
      this.mayHold = answer.mayHold;
      this.fairPart = answer.fairPart;
      this.confirmedAt = sentAt;
      if (!this.stopped) this.setLimit(Math.min(answer.mayHold, answer.fairPart, wanted));
    } catch (error) {
      this.onError(error);
    }
  }

  private setLimit(limit: number): void {
    if (limit === this.limit) return;
    this.limit = limit;
    this.window.resize(limit);
  }

  private ttlMs(): number {
    return STALE_MS + this.ceiling.windowMs + LAST_ANSWERS_MS;
  }
}

/**
 * The parts of this process (`holder`) in PostgreSQL. Each round also reads the address's ban, so a ban
 * another process on the address heard of (`egress_bans`) holds this one's requests within a round.
 */
export function createWindowShares(db: DbOrTx, options: { holder?: string; bans?: AddressBans; onError?: (error: unknown) => void } = {}): WindowShares {
  const holder = options.holder ?? newHolderName();
  const onError = options.onError ?? (() => undefined);
  const parts = new Map<string, WindowPart>();
  const call: RoundCall = async (exchange, egress, report) => {
    const result = await db.execute<RoundRow>(sql`
      select s.may_hold, s.fair_part, b.since as banned_since, b.until as banned_until, b.reason as ban_reason
      from share_egress_window(${exchange}, ${egress}, ${holder}, ${report.wanted}, ${report.held}, ${report.cap}, ${report.ttlMs}) s
      left join egress_bans b on b.exchange = ${exchange} and b.egress = ${egress} and b.until > now()`);
    const row = result.rows[0]!;
    if (options.bans && row.banned_until !== null && row.banned_since !== null) {
      options.bans.adopt({ exchange, egress, since: Date.parse(row.banned_since), until: Date.parse(row.banned_until), reason: row.ban_reason ?? 'banned' });
    }
    return { mayHold: Number(row.may_hold), fairPart: Number(row.fair_part) };
  };
  return {
    share(exchange, egress, ceiling, window) {
      const key = `${exchange}:${egress}`;
      if (parts.has(key)) throw new Error(`the window of ${key} is already shared`);
      parts.set(key, new WindowPart(exchange, egress, ceiling, window, call, onError));
    },
    expect(exchange, egress, count) {
      parts.get(`${exchange}:${egress}`)?.press(count);
    },
    async stop() {
      await Promise.all([...parts.values()].map((part) => part.stop()));
      parts.clear();
    },
  };
}
