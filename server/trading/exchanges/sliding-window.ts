/**
 * At most `limit` requests in any `windowMs` interval as the exchange counts them, first come first
 * served. The exchange counts a request when it arrives, which we never see: somewhere between our
 * grant and its answer. So a grant holds its slot while the request is in flight and for `windowMs`
 * after the answer is in (the `done` callback): however late the request arrives, it has left the
 * exchange's window before its slot is given again. A waiter is woken by one timer set to the moment
 * the oldest finished grant leaves the window, or by a `done`: no polling. The first request of an
 * idle window goes through at once.
 */
export interface WindowStats {
  limit: number;
  windowMs: number;
  granted: number;
  /** Requests that had to wait at all. */
  delayed: number;
  waiting: number;
  maxWaiting: number;
  totalWaitMs: number;
  maxWaitMs: number;
  /** Grants holding a slot now: in flight, or answered within the window. */
  inWindow: number;
}

/**
 * Called once the request's answer (or its failure) is in; later calls do nothing. `answeredAt`: when
 * the exchange answered, on the window's clock, where the caller knows it more closely than "now" (its
 * own reading of the answer may lag behind): the request arrived before it.
 */
export type GrantDone = (answeredAt?: number) => void;

interface Waiter {
  enqueuedAt: number;
  resolve: (done: GrantDone) => void;
  reject: (error: unknown) => void;
}

export class SlidingWindow {
  /** When each finished grant was answered, oldest first. */
  private readonly finished: number[] = [];
  private head = 0;
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  private queueHead = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly stats = { granted: 0, delayed: 0, maxWaiting: 0, totalWaitMs: 0, maxWaitMs: 0 };

  constructor(
    private capacity: number,
    readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(capacity >= 0) || !(windowMs > 0)) throw new RangeError(`SlidingWindow needs limit >= 0 and windowMs > 0, got ${capacity}/${windowMs}`);
  }

  get limit(): number {
    return this.capacity;
  }

  /**
   * A new limit from now on (0: nothing is granted). Grants already in the window stay counted: after a
   * cut, nothing more is granted until fewer than the new limit are left in it; a raise serves the waiters at once.
   */
  resize(limit: number): void {
    if (!(limit >= 0)) throw new RangeError(`SlidingWindow needs limit >= 0, got ${limit}`);
    this.capacity = limit;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule();
  }

  acquire(signal?: AbortSignal): Promise<GrantDone> {
    const granted = this.tryAcquire();
    if (granted) return Promise.resolve(granted);
    const at = this.now();
    return new Promise<GrantDone>((resolve, reject) => {
      const waiter: Waiter = { enqueuedAt: at, resolve, reject };
      this.queue.push(waiter);
      this.stats.maxWaiting = Math.max(this.stats.maxWaiting, this.waitingCount());
      signal?.addEventListener('abort', () => this.cancel(waiter, signal.reason), { once: true });
      this.schedule();
    });
  }

  /** A slot at once when one is free and nobody waits for it; undefined otherwise (nothing queued). */
  tryAcquire(): GrantDone | undefined {
    const at = this.now();
    this.expire(at);
    return this.waitingCount() === 0 && this.inWindow() < this.capacity ? this.grant(at, at) : undefined;
  }

  snapshot(): WindowStats {
    this.expire(this.now());
    return { limit: this.limit, windowMs: this.windowMs, ...this.stats, waiting: this.waitingCount(), inWindow: this.inWindow() };
  }

  private waitingCount(): number {
    return this.queue.length - this.queueHead;
  }

  private inWindow(): number {
    return this.inFlight + this.finished.length - this.head;
  }

  private grant(at: number, enqueuedAt: number): GrantDone {
    this.inFlight += 1;
    this.stats.granted += 1;
    const waited = at - enqueuedAt;
    if (waited > 0) {
      this.stats.delayed += 1;
      this.stats.totalWaitMs += waited;
      this.stats.maxWaitMs = Math.max(this.stats.maxWaitMs, waited);
    }
    let finished = false;
    return (answeredAt) => {
      if (finished) return;
      finished = true;
      this.inFlight -= 1;
      this.finished.push(this.finishedAt(at, answeredAt));
      this.schedule();
    };
  }

  /**
   * Where the slot's window starts: the answer's time when given and plausible (after the grant, not in
   * the future), else now; never before the last finished grant, so the list stays in order (later is
   * the safe side).
   */
  private finishedAt(grantedAt: number, answeredAt: number | undefined): number {
    const now = this.now();
    if (answeredAt === undefined || !(answeredAt >= grantedAt && answeredAt <= now)) return now;
    const last = this.finished[this.finished.length - 1];
    return last !== undefined && last > answeredAt ? last : answeredAt;
  }

  private expire(at: number): void {
    while (this.head < this.finished.length && this.finished[this.head]! <= at - this.windowMs) this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.finished.length) {
      this.finished.splice(0, this.head);
      this.head = 0;
    }
  }

  private drain(): void {
    this.timer = undefined;
    const at = this.now();
    this.expire(at);
    while (this.waitingCount() > 0 && this.inWindow() < this.capacity) {
      const waiter = this.queue[this.queueHead]!;
      this.queueHead += 1;
      waiter.resolve(this.grant(at, waiter.enqueuedAt));
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
    this.schedule();
  }

  /** Sets the wake-up for the first waiter; with every slot in flight, the next `done` sets it. */
  private schedule(): void {
    if (this.timer || this.waitingCount() === 0) return;
    this.expire(this.now());
    if (this.inWindow() < this.capacity) {
      this.timer = setTimeout(() => this.drain(), 0);
      return;
    }
    const oldest = this.finished[this.head];
    if (oldest === undefined) return;
    const delay = Math.max(0, oldest + this.windowMs - this.now());
    this.timer = setTimeout(() => this.drain(), Math.ceil(delay) + 1);
  }

  private cancel(waiter: Waiter, reason: unknown): void {
    const index = this.queue.indexOf(waiter, this.queueHead);
    if (index < 0) return;
    this.queue.splice(index, 1);
    waiter.reject(reason);
  }
}
