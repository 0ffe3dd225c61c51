import type { Db } from '../../db/client';
import { nextWorkDueInMs } from '../execution-state/queue';

/** Wakes the dispatcher when the next retry falls due, instead of waiting for the safety poll. */
export class NextDueTimer {
  private timer: NodeJS.Timeout | undefined;
  private dueAt = Infinity;

  constructor(
    private readonly db: Db,
    private readonly safetyPollMs: number,
    private readonly active: () => boolean,
    private readonly onDue: () => void,
  ) {}

  async schedule(): Promise<void> {
    const ms = await nextWorkDueInMs(this.db);
    if (ms === null || !this.active()) return;
    const wait = Math.min(ms + 5, this.safetyPollMs);
    // A reading finished meanwhile may have timed an earlier wake-up: it stands (waking early costs one drain).
    if (this.timer && this.dueAt <= performance.now() + wait) return;
    if (this.timer) clearTimeout(this.timer);
    this.dueAt = performance.now() + wait;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onDue();
    }, wait);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
