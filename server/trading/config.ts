/** Which exchanges the engine talks to: the built-in sandbox, the exchanges' test environments, or live. */
export type ExchangeMode = 'sandbox' | 'testnet' | 'live';

/** TradingView's webhook source addresses (https://www.tradingview.com/support/solutions/43000529348). */
export const TRADINGVIEW_IPS = ['52.89.214.238', '34.212.75.30', '54.218.53.128', '52.32.178.7'] as const;

export interface TradingConfig {
  /** Same body within this window is a repeat (TradingView resends, once-per-bar alerts). */
  duplicateWindowMs: number;
  /** Source addresses allowed to call the webhook; null accepts every address. */
  webhookAllowList: readonly string[] | null;
  /** An entry not placed within this time after the alert is dropped and audited. */
  entryDeadlineMs: number;
  /** An alert whose own timestamp is older than this is not acted on. */
  maxAlertAgeMs: number;
  /** Executions one process keeps in flight at once per exchange (each exchange has its own slots). */
  concurrency: number;
  /** A claim not renewed within this time is taken over by another process. */
  leaseMs: number;
  /**
   * Of the executions an alert's statement claims for this process, how many it reads the contexts of;
   * the dispatcher reads the others' right after the commit, while the first entries are being sent.
   */
  handoffContexts: number;
  /** Slow safety poll besides LISTEN/NOTIFY. */
  safetyPollMs: number;
  /** Period of the position sync. */
  syncIntervalMs: number;
  /** Period of the reconciler's check of every warm account as a whole (legs nobody owns, positions not ours). */
  reconcileIntervalMs: number;
}

function numberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got '${raw}'`);
  return value;
}

/**
 * WEBHOOK_IP_ALLOWLIST: `tradingview` (the four addresses), `off`, or a comma-separated list.
 * Default: TradingView's addresses in live mode, off in sandbox mode.
 */
function allowListFrom(env: NodeJS.ProcessEnv, mode: ExchangeMode): readonly string[] | null {
  const raw = (env.WEBHOOK_IP_ALLOWLIST ?? (mode === 'live' ? 'tradingview' : 'off')).trim();
  if (raw === 'off' || raw === '') return null;
  if (raw === 'tradingview') return TRADINGVIEW_IPS;
  return raw.split(',').map((ip) => ip.trim()).filter(Boolean);
}

/** Read once by `loadConfig` (server/config.ts) into `Config.trading`. */
export function loadTradingConfig(mode: ExchangeMode, env: NodeJS.ProcessEnv): TradingConfig {
  return {
    duplicateWindowMs: numberFrom(env, 'WEBHOOK_DUPLICATE_WINDOW_MS', 10_000),
    webhookAllowList: allowListFrom(env, mode),
    entryDeadlineMs: numberFrom(env, 'ENTRY_DEADLINE_MS', 30_000),
    maxAlertAgeMs: numberFrom(env, 'MAX_ALERT_AGE_MS', 60_000),
    concurrency: numberFrom(env, 'DISPATCH_CONCURRENCY', 5_000),
    leaseMs: numberFrom(env, 'DISPATCH_LEASE_MS', 15_000),
    handoffContexts: Math.max(1, numberFrom(env, 'DISPATCH_HANDOFF_CONTEXTS', 500)),
    safetyPollMs: numberFrom(env, 'DISPATCH_SAFETY_POLL_MS', 5_000),
    syncIntervalMs: numberFrom(env, 'POSITION_SYNC_INTERVAL_MS', 15_000),
    reconcileIntervalMs: numberFrom(env, 'RECONCILE_INTERVAL_MS', 600_000),
  };
}
