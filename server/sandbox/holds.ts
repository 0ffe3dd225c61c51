/** Delays (injected latency, late or never-coming answers) that close() can cut short. */
export class Holds {
  private readonly pending = new Set<() => void>();
  private closed = false;

  /** Waits ms (undefined = until close); answers false when the sandbox closed or the caller went away meanwhile. */
  wait(ms: number | undefined, onGone?: (release: () => void) => void): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        this.pending.delete(release);
        resolve(false);
      };
      const timer = ms === undefined ? undefined : setTimeout(() => {
        this.pending.delete(release);
        resolve(true);
      }, ms);
      this.pending.add(release);
      onGone?.(release);
    });
  }

  releaseAll(): void {
    this.closed = true;
    for (const release of [...this.pending]) release();
  }
}
