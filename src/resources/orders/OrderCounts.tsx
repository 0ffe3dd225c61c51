import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { orderRoutes } from '../../../contract/api/order';
import type { AppDataProvider } from '../../dataProvider';
import { HeaderCount } from '../common/ListHeader';

/** TotalDeal, Win and Loss counts of the order list header. */
export function OrderCounts() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data } = useQuery({ queryKey: ['orders', 'statistics'], queryFn: () => dataProvider.call(orderRoutes.statistics) });
  return (
    <>
      <HeaderCount label={translate('resources.orders.counts.totalDeal')} value={data?.totalDeal} />
      <HeaderCount label={translate('resources.orders.counts.win')} value={data?.win} color="success.main" />
      <HeaderCount label={translate('resources.orders.counts.loss')} value={data?.loss} color="error.main" />
    </>
  );
}
