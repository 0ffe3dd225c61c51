import type { Envelope } from '../../contract/envelope';

export function ok<T>(data: T): Envelope<T> {
  return { successful: true, data, error: null };
}

export function fail(message: string): Envelope<never> {
  return { successful: false, data: null, error: { message } };
}
