import { exchangeNames } from './exchanges/errors';
import { DEFAULT_CEILINGS } from './exchanges/rate-limiter';
import { Semaphore } from './exchanges/semaphore';
import { ExchangeFailure, type EntryChannel, type ExchangeId } from './exchanges/types';

/** Entries still to be placed on one exchange, across every process (read from the queue). */
export interface EntryPressure {
  pending: number;
  /** Epoch ms of the earliest deadline among them. */
  earliestDeadline: number | null;
}

/**
 * How one process shares an exchange's request budget (the per-IP ceiling) between entries and
 * protection, in front of the rate limiter (first come, first served):
 * - entries wait for one of a few entry places, so the limiter's queue stays short and a position's
 *   protection, asked for right after its fill, is not served behind a thousand queued entries;
 * - protection goes to a few executions at a time, in the order their entries filled, each sending
 *   its legs together, so positions are protected one after the other instead of all at the end;
 * - protection steps aside while the entries still waiting (in every process) need the whole budget
 *   to be placed before their deadline: an entry never misses its deadline for someone's take-profit.
 *   They are counted at the rate of the channel the recent entries left by: entries over an order-entry
 *   socket do not draw on the REST budget the fill reads use, so protection need not wait for them.
 */
export interface Pacer {
  /**
   * `channel` 'websocket': the entry leaves over the account's order-entry socket, paced by that channel's
   * own per-address rate. An entry still waiting for its turn at its `deadline` (epoch ms) is not sent:
   * a final `deadline` failure.
   */
  entry<T>(exchange: ExchangeId, send: () => Promise<T>, channel?: EntryChannel, deadline?: number): Promise<T>;
  /** A protection place (release it when done), or null while the entries need the whole budget. */
  protection(exchange: ExchangeId): Promise<(() => void) | null>;
  setPressure(exchange: ExchangeId, pressure: EntryPressure): void;
}

/** Entries' time at the full rate is counted with this margin. */
const DEADLINE_MARGIN = 1.25;

/** Requests per second this process plans to send to each exchange (the limiter's per-IP plan). */
export const plannedRate = (exchange: ExchangeId) => DEFAULT_CEILINGS[exchange].perIp.limit / (DEFAULT_CEILINGS[exchange].perIp.windowMs / 1000);

/** Orders per second over the exchange's WebSocket order entry (Bybit /v5/trade: 2,850 of its 3,000 per address), else the HTTP plan. */
export const plannedSocketRate = (exchange: ExchangeId) => {
  const ceiling = DEFAULT_CEILINGS[exchange].perIpOrderEntry;
  return ceiling ? ceiling.limit / (ceiling.windowMs / 1000) : plannedRate(exchange);
};

/**
 * Time kept free before the entries' deadline: a request the limiter grants holds its slot for a whole
 * window after its answer, so protection granted just before the entries needed everything still
 * takes up to a window of their budget (Bybit 5 s); plus a second of lag.
 */
export const deadlineSlackMs = (exchange: ExchangeId) => Math.min(DEFAULT_CEILINGS[exchange].perIp.windowMs, 10_000) + 1_000;

/** Entries in flight at once per exchange: those of 0.4 s at the channel's planned rate. */
const entryPlaces = (perSecond: number) => new Semaphore(Math.max(4, Math.round(perSecond * 0.4)));

/** How many of an exchange's latest entries tell which channel the entries still waiting will leave by. */
const RECENT_ENTRIES = 200;

/** The channels of an exchange's latest entries; none yet counts as REST (the slower budget). */
class RecentChannels {
  private readonly overSocket = new Uint8Array(RECENT_ENTRIES);
  private next = 0;
  private seen = 0;
  private sockets = 0;

  note(channel: EntryChannel): void {
    const socket = channel === 'websocket' ? 1 : 0;
    if (this.seen === RECENT_ENTRIES) this.sockets -= this.overSocket[this.next]!;
    else this.seen += 1;
    this.overSocket[this.next] = socket;
    this.sockets += socket;
    this.next = (this.next + 1) % RECENT_ENTRIES;
  }

  socketShare(): number {
    return this.seen === 0 ? 0 : this.sockets / this.seen;
  }
}

/** A place once one is free; an entry whose deadline passes first is not sent (a final `deadline` failure). */
async function turnBy(places: Semaphore, exchange: ExchangeId, deadline: number | undefined): Promise<() => void> {
  if (deadline === undefined) return places.acquire();
  const passed = AbortSignal.timeout(Math.max(0, deadline - Date.now()));
  try {
    return await places.acquire(passed);
  } catch (error) {
    if (!passed.aborted) throw error;
    throw new ExchangeFailure('deadline', false, `${exchangeNames[exchange]} was not sent this entry: its deadline passed while it waited for its turn`);
  }
}

export function createPacer(
  rate: (exchange: ExchangeId) => number = plannedRate,
  now: () => number = Date.now,
  slackMs: (exchange: ExchangeId) => number = deadlineSlackMs,
  socketRate: (exchange: ExchangeId) => number = plannedSocketRate,
): Pacer {
  const lanes = new Map<ExchangeId, { entries: Semaphore; socketEntries: Semaphore; protection: Semaphore; pressure: EntryPressure; recent: RecentChannels }>();
  const lane = (exchange: ExchangeId) => {
    let found = lanes.get(exchange);
    if (!found) {
      const perSecond = rate(exchange);
      found = {
        entries: entryPlaces(perSecond),
        socketEntries: entryPlaces(socketRate(exchange)),
        protection: new Semaphore(Math.max(2, Math.round(perSecond * 0.2))),
        pressure: { pending: 0, earliestDeadline: null },
        recent: new RecentChannels(),
      };
      lanes.set(exchange, found);
    }
    return found;
  };
  const entriesNeedEverything = (exchange: ExchangeId) => {
    const { pressure, recent } = lane(exchange);
    if (pressure.pending === 0 || pressure.earliestDeadline === null) return false;
    const share = recent.socketShare();
    const seconds = pressure.pending * DEADLINE_MARGIN * ((1 - share) / rate(exchange) + share / socketRate(exchange));
    return now() + seconds * 1000 + slackMs(exchange) >= pressure.earliestDeadline;
  };
  return {
    async entry(exchange, send, channel = 'rest', deadline) {
      const { entries, socketEntries, recent } = lane(exchange);
      recent.note(channel);
      const places = channel === 'websocket' ? socketEntries : entries;
      const release = places.tryAcquire() ?? (await turnBy(places, exchange, deadline));
      try {
        return await send();
      } finally {
        release();
      }
    },
    async protection(exchange) {
      if (entriesNeedEverything(exchange)) return null;
      const release = await lane(exchange).protection.acquire();
      if (!entriesNeedEverything(exchange)) return release;
      release();
      return null;
    },
    setPressure(exchange, pressure) {
      lane(exchange).pressure = pressure;
    },
  };
}
