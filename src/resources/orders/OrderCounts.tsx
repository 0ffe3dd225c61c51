import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { HeaderCount } from '../../components/list/ListHeader';
import { useAppDataProvider } from '../../dataProvider';

/** TotalDeal, Win and Loss counts of the order list header. */
export function OrderCounts() {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { data } = useQuery({ queryKey: ['orders', 'statistics'], queryFn: () => dataProvider.getOrderStatistics() });
  return (
    <>
      <HeaderCount label={translate('resources.orders.counts.totalDeal')} value={data?.totalDeal} />
      <HeaderCount label={translate('resources.orders.counts.win')} value={data?.win} color="success.main" />
      <HeaderCount label={translate('resources.orders.counts.loss')} value={data?.loss} color="error.main" />
    </>
  );
}
