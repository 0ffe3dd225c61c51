import { QueryClient } from '@tanstack/react-query';
import { statusOf } from './errors';

const MAX_RETRIES = 3;

/** A refusal (4xx) answers the same the next time: only transport failures and 5xx are tried again. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = statusOf(error);
  if (status >= 400 && status < 500) return false;
  return failureCount < MAX_RETRIES;
}

/** The query client of the back office (and of the component tests, so they fail the same way). */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: shouldRetry } } });
}
