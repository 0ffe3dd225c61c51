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
