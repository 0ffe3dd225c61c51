import { randomUUID } from 'node:crypto';

/** A LISTEN connection (pg.Client or a pool's client). */
export interface NotificationSource {
  on(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown;
  off(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown;
}

/** Anything that runs a statement: a pool, a client. */
export interface Statements {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/** Whether a payload is one of `notificationsDelivered`'s markers (JSON, so listeners that parse payloads read it too). */
export const isMarker = (payload: string | undefined): boolean => payload?.startsWith('{"marker":') ?? false;

/**
 * Resolves once `listener` has received every notification on `channel` committed before the call:
 * it sends a marker of its own through `sender` and waits for it, PostgreSQL delivering a channel's
 * notifications in commit order. What the listener heard by then is complete, so "nothing was
 * notified" is a fact, not a guess after a sleep. Answers the marker's payload.
 */
export async function notificationsDelivered(listener: NotificationSource, sender: Statements, channel: string): Promise<string> {
  const marker = JSON.stringify({ marker: randomUUID() });
  let heard: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (heard = resolve));
  const onNotification = (message: { channel: string; payload?: string | undefined }) => {
    if (message.channel === channel && message.payload === marker) heard();
  };
  listener.on('notification', onNotification);
  try {
    await sender.query('select pg_notify($1, $2)', [channel, marker]);
    await arrived;
  } finally {
    listener.off('notification', onNotification);
  }
  return marker;
}

/**
 * Runs `during` while the LISTEN connections named `applicationName` on the current database cannot
 * receive anything: their PostgreSQL backends are stopped (SIGSTOP) and continued afterwards, as when
 * a notification is still on its way. Needs the database server on this machine (the embedded one);
 * throws when a backend is not a local process, rather than pass without holding anything.
 */
export async function withNotificationsHeld<T>(pool: Statements & { query(text: string): Promise<{ rows: { pid: number }[] }> }, applicationName: string, during: () => Promise<T>): Promise<T> {
  const { rows } = await pool.query(`select pid from pg_stat_activity where application_name = '${applicationName.replace(/'/g, "''")}' and datname = current_database()`);
  if (rows.length === 0) throw new Error(`no connection named ${applicationName} is listening`);
  for (const { pid } of rows) process.kill(pid, 'SIGSTOP');
  try {
    return await during();
  } finally {
    for (const { pid } of rows) process.kill(pid, 'SIGCONT');
  }
}
