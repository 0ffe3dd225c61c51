/** At most `size` holders at once; waiters are served in arrival order. */
export class Semaphore {
  private held = 0;
  private readonly waiters: Array<() => void> = [];
  maxWaiting = 0;

  constructor(readonly size: number) {
    if (!(size >= 1)) throw new RangeError(`Semaphore size must be at least 1, got ${size}`);
  }

  /** The release function of a place free now, or undefined (nothing queued). */
  tryAcquire(): (() => void) | undefined {
    if (this.held >= this.size) return undefined;
    this.held += 1;
    return this.releaser();
  }

  /** Resolves with the release function once a place is free; rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    const free = this.tryAcquire();
    if (free) return Promise.resolve(free);
    return new Promise((resolve, reject) => {
      const waiter = () => {
        signal?.removeEventListener('abort', leave);
        resolve(this.releaser());
      };
      const leave = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(signal!.reason);
      };
      this.waiters.push(waiter);
      this.maxWaiting = Math.max(this.maxWaiting, this.waiters.length);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  get inUse(): number {
    return this.held;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.held -= 1;
    };
  }
}
