import { useQuery, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ui } from '../../../contract/messages';
import { shouldRetry } from '../../dataProvider/queryClient';

/**
 * A failed statistics call is tried once more, half a second later: the figures say they failed
 * within about 2 s instead of after react-query's three retries (1 + 2 + 4 s) (issue 28).
 */
export const STATISTICS_RETRIES = 1;
export const STATISTICS_RETRY_DELAY_MS = 500;

export function retryStatistics(failureCount: number, error: unknown): boolean {
  return failureCount < STATISTICS_RETRIES && shouldRetry(failureCount, error);
}

/**
 * One statistics call (header counts, dashboard cards). While it loads the widget shows a
 * placeholder (`isPending`), never 0. When it fails, 'Failed to get statistics' (spec 8) is logged
 * with the error, and `isError` tells the widget to show <StatisticsFailed /> in place of figures it
 * does not have.
 */
export function useStatistics<T>(queryKey: QueryKey, queryFn: () => Promise<T>) {
  const query = useQuery({ queryKey, queryFn, retry: retryStatistics, retryDelay: STATISTICS_RETRY_DELAY_MS });
  const { error } = query;
  useEffect(() => {
    if (error) console.error(ui.other.statisticsFailed, error);
  }, [error]);
  return query;
}
