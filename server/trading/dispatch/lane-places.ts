import type { JobKind } from '../execution-state/queue';
import type { ExchangeId } from '../exchanges/types';
import { LANES } from '../lanes';

/** Sync jobs in flight at once per lane, so entries always find room (more at once would only queue for the same budget). */
const SYNC_PLACES = 50;

/**
 * The executions in flight per lane (each exchange has its own places), and where due work may be
 * waiting for one.
 */
export class LanePlaces {
  private readonly inLane = new Map<ExchangeId, { all: number; sync: number }>(LANES.map((lane) => [lane, { all: 0, sync: 0 }]));
  /**
   * Lanes where due work may be waiting for a place: their last claim had no room to look, or took
   * all it asked for. Only a place freed in one of them claims again; otherwise the thousands of places
   * a fan-out frees would each query a queue known to hold nothing due (new work wakes us by NOTIFY).
   */
  private readonly waiting = new Set<ExchangeId>();

  constructor(private readonly concurrency: number) {}

  /** Places free in the lane for any job. */
  free(lane: ExchangeId): number {
    return Math.max(0, this.concurrency - this.count(lane).all);
  }

  /** Places free in the lane for a sync job. */
  freeForSync(lane: ExchangeId): number {
    return Math.min(SYNC_PLACES - this.count(lane).sync, this.free(lane));
  }

  /** A place in the lane, freed (once) by the function returned. */
  take(kind: JobKind, lane: ExchangeId): () => void {
    const count = this.count(lane);
    count.all += 1;
    if (kind === 'sync') count.sync += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      count.all -= 1;
      if (kind === 'sync') count.sync -= 1;
    };
  }

  /** A claim is about to look: until it shows a lane's due work all taken, some may be waiting there. */
  claiming(): void {
    for (const lane of LANES) this.waiting.add(lane);
  }

  /** A claim asked the lane for `asked` and got `taken`, fewer: nothing due is left waiting there. */
  claimed(lane: ExchangeId, asked: number, taken: number): void {
    if (asked > 0 && taken < asked) this.waiting.delete(lane);
  }

  mayHaveWaiting(lane: ExchangeId): boolean {
    return this.waiting.has(lane);
  }

  private count(lane: ExchangeId): { all: number; sync: number } {
    return this.inLane.get(lane)!;
  }
}
