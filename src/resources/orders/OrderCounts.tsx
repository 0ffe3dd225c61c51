import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import type { Order } from '../../../contract/api/order';
import { HeaderCount } from '../../components/list/ListHeader';
import { StatisticsFailed } from '../../components/statistics/StatisticsFailed';
import { useStatistics } from '../../components/statistics/useStatistics';
import { useAppDataProvider } from '../../dataProvider';

/** What the counts depend on in the rows shown: when an order settles, the counts are read again. */
function settledRows(orders: Order[] | undefined): string {
  return (orders ?? []).map((order) => `${order.id}:${order.status}`).join(',');
}

const STATISTICS_KEY = ['orders', 'statistics'];

/** Reads the counts again when a row shown settles (not on the list's first load). */
function useCountsFollowRows() {
  const queryClient = useQueryClient();
  const rows = settledRows(useListContext<Order>().data);
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (seen.current !== undefined && seen.current !== '' && rows !== seen.current) void queryClient.invalidateQueries({ queryKey: STATISTICS_KEY });
    seen.current = rows;
  }, [rows, queryClient]);
}

/** TotalDeal, Win and Loss counts of the order list header; they follow the rows (an order won or lost). */
export function OrderCounts() {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { data, isError } = useStatistics(STATISTICS_KEY, () => dataProvider.getOrderStatistics());
  useCountsFollowRows();
  if (isError) return <StatisticsFailed />;
  return (
    <>
      <HeaderCount label={translate('resources.orders.counts.totalDeal')} value={data?.totalDeal} />
      <HeaderCount label={translate('resources.orders.counts.win')} value={data?.win} color="success.main" />
      <HeaderCount label={translate('resources.orders.counts.loss')} value={data?.loss} color="error.main" />
    </>
  );
}
