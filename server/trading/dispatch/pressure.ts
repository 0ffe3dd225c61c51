import { pendingEntries } from '../execution-state/queue';
import { LANES } from '../lanes';
import { exchangeIdOf, type TradingRuntime } from '../runtime';

/** How often the entries waiting in the queue (every process's) are counted for the pacer while there are any. */
const PRESSURE_REFRESH_MS = 250;

/**
 * Tells the pacer how many entries are still to be placed per exchange, and by when: at most every
 * PRESSURE_REFRESH_MS (drains come back to back during a fan-out), and on a timer while any wait.
 */
export class PressureGauge {
  private timer: NodeJS.Timeout | undefined;
  private readAt = -Infinity;

  constructor(
    private readonly rt: TradingRuntime,
    private readonly active: () => boolean,
  ) {}

  async refresh(): Promise<void> {
    if (performance.now() - this.readAt < PRESSURE_REFRESH_MS) return;
    this.readAt = performance.now();
    const rows = await pendingEntries(this.rt.db);
    for (const exchange of LANES) {
      const row = rows.find((r) => exchangeIdOf(r.platformType) === exchange);
      this.rt.pacer.setPressure(exchange, { pending: row?.pending ?? 0, earliestDeadline: row ? row.earliestDeadline.getTime() : null });
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = rows.length > 0 && this.active() ? setTimeout(() => this.refreshLogged(), PRESSURE_REFRESH_MS) : undefined;
  }

  /** `refresh` where nobody awaits it: a failure is logged (the next drain counts again). */
  refreshLogged(): void {
    this.refresh().catch((error: unknown) => this.rt.log.error({ err: error }, 'counting pending entries failed'));
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
