import { createDb, type DbHandle } from '../../server/db/client';
import type { InvariantTracker } from './invariants';
import { takeSnapshot, type Snapshot } from './observe';
import type { ChaosWorld } from './world';

/** Pause between two samples (each sample is a database read and a sandbox read). */
export const SAMPLE_PAUSE_MS = 150;

/**
 * Samples the sandbox and the database every SAMPLE_PAUSE_MS on a connection of its own (the engine's
 * pool is left alone) and hands each snapshot to the delivery clock and the invariant tracker.
 */
export class Sampler {
  private handle: DbHandle | undefined;
  private running = false;
  private loop: Promise<void> | undefined;
  private waiting: Array<(snapshot: Snapshot) => void> = [];
  private failures = 0;
  last: Snapshot | undefined;

  constructor(
    private readonly world: ChaosWorld,
    private readonly tracker: InvariantTracker,
  ) {}

  start(): void {
    this.handle = createDb(this.world.ctx.database.url, { max: 1, applicationName: 'chaos-checker' });
    this.running = true;
    this.loop = this.run();
  }

  /** The next sample taken from now on. */
  next(): Promise<Snapshot> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.handle?.close();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const snapshot = await takeSnapshot(this.handle!.db, this.world.sandbox.control, this.world.customers);
        this.world.delivery.observe(snapshot);
        this.tracker.observe(snapshot);
        this.last = snapshot;
        for (const resolve of this.waiting.splice(0)) resolve(snapshot);
      } catch (error) {
        this.failures += 1;
        if (this.failures <= 3) this.world.note(`sample failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_PAUSE_MS));
    }
  }
}
