/** At most `size` holders at once; waiters are served in arrival order. */
export class Semaphore {
  private held = 0;
  private readonly waiters: Array<() => void> = [];
  maxWaiting = 0;

  constructor(readonly size: number) {
    if (!(size >= 1)) throw new RangeError(`Semaphore size must be at least 1, got ${size}`);
  }

  /** Resolves with the release function once a place is free. */
  acquire(): Promise<() => void> {
    if (this.held < this.size) {
      this.held += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      this.waiters.push(() => resolve(this.releaser()));
      this.maxWaiting = Math.max(this.maxWaiting, this.waiters.length);
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
