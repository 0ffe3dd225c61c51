import { HttpError } from 'ra-core';
import { ui } from '../../contract/messages';

/** The status of a failed call (0 when the request never reached the server). */
export function statusOf(error: unknown): number {
  return error instanceof HttpError ? error.status : 0;
}

/** The message to show for a failed call, or `fallback` when the error carries none. */
export function errorMessage(error: unknown, fallback: string = ui.fallback.unknownError): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/** Marks a write (create, update, delete, a named action that is not a `get...` read) refused with a 401. */
const WRITE_REFUSED = 'writeRefused';

/**
 * A write refused for want of a session keeps its 401 but is reported by the screen that made it
 * (its error popup says 'You need to be logged in' or the server's message). react-admin would
 * otherwise sign out and resolve the write with empty data, so the screen said it succeeded.
 */
export function asRefusedWrite(error: unknown): unknown {
  if (!(error instanceof HttpError) || error.status !== 401) return error;
  return new HttpError(error.message, error.status, { [WRITE_REFUSED]: true });
}

/** True for a write refused with a 401 (see `asRefusedWrite`): it must not sign out silently. */
export function isRefusedWrite(error: unknown): boolean {
  return error instanceof HttpError && (error.body as Record<string, unknown> | undefined)?.[WRITE_REFUSED] === true;
}
