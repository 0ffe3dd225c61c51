import { useQuery, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ui } from '../../../contract/messages';

/**
 * One statistics call (header counts, dashboard cards). When it fails, 'Failed to get statistics'
 * (spec 8) is logged with the error, and `isError` tells the widget to show <StatisticsFailed />
 * in place of figures it does not have.
 */
export function useStatistics<T>(queryKey: QueryKey, queryFn: () => Promise<T>) {
  const query = useQuery({ queryKey, queryFn });
  const { error } = query;
  useEffect(() => {
    if (error) console.error(ui.other.statisticsFailed, error);
  }, [error]);
  return query;
}
