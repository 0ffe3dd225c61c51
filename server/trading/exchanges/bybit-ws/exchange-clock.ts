/** How long an offset bound is kept: an exchange clock set back is followed within this time. */
const BOUND_MEMORY_MS = 10_000;
const BUCKET_MS = 2_000;

/**
 * Bybit's clock against our monotonic one (`performance.now()`), from the `Timenow` of trade answers:
 * the exchange's time in whole ms when it answered (header.Timenow, docs/v5/websocket/trade/guideline.mdx),
 * and from the time each pong carries (`data[0]`, same page). A frame is stamped before we read it, so
 * `stamp - readAt` bounds the offset (exchange minus ours) from below, and the largest bound seen is the
 * closest: pongs, read while the event loop is idle, keep a close one between alerts. An answer's time on
 * our clock is then at most `Timenow + 1 - bound`: usually earlier than our reading of it, which lags
 * while the event loop is busy. The order-entry window counts an order's second from there; the
 * exchange counted the order when it arrived, before that.
 */
export class ExchangeClock {
  /** The largest bound per BUCKET_MS of our clock, oldest first. */
  private readonly buckets: Array<{ start: number; bound: number }> = [];

  /** The answer's time on our clock (never later than `readAt`); undefined without a usable `Timenow`. */
  answeredAt(timenow: unknown, readAt: number): number | undefined {
    const stamped = this.heard(timenow, readAt);
    return stamped === undefined ? undefined : Math.min(readAt, stamped + 1 - this.bound());
  }

  /** Learns from a frame the exchange stamped `stamp` (ms as text) and we read at `readAt`; the stamp, if usable. */
  heard(stamp: unknown, readAt: number): number | undefined {
    const stamped = Number(stamp);
    if (typeof stamp !== 'string' || !Number.isFinite(stamped) || stamped <= 0) return undefined;
    this.observe(stamped - readAt, readAt);
    return stamped;
  }

  /** The exchange's time now (epoch ms), as closely as the frames heard tell it; our own clock before any was heard. */
  now(): number {
    const at = performance.now();
    const bound = this.bound();
    return Number.isFinite(bound) ? Math.round(at + bound) : Date.now();
  }

  private observe(bound: number, at: number): void {
    const start = at - (at % BUCKET_MS);
    const last = this.buckets[this.buckets.length - 1];
    if (last && last.start === start) last.bound = Math.max(last.bound, bound);
    else this.buckets.push({ start, bound });
    while (this.buckets.length > 0 && this.buckets[0]!.start <= at - BOUND_MEMORY_MS) this.buckets.shift();
  }

  private bound(): number {
    let largest = -Infinity;
    for (const bucket of this.buckets) largest = Math.max(largest, bucket.bound);
    return largest;
  }
}
