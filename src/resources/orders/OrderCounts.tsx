import { useTranslate } from 'react-admin';
import { HeaderCount } from '../../components/list/ListHeader';
import { StatisticsFailed } from '../../components/statistics/StatisticsFailed';
import { useStatistics } from '../../components/statistics/useStatistics';
import { useAppDataProvider } from '../../dataProvider';

/** TotalDeal, Win and Loss counts of the order list header. */
export function OrderCounts() {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { data, isError } = useStatistics(['orders', 'statistics'], () => dataProvider.getOrderStatistics());
  if (isError) return <StatisticsFailed />;
  return (
    <>
      <HeaderCount label={translate('resources.orders.counts.totalDeal')} value={data?.totalDeal} />
      <HeaderCount label={translate('resources.orders.counts.win')} value={data?.win} color="success.main" />
      <HeaderCount label={translate('resources.orders.counts.loss')} value={data?.loss} color="error.main" />
    </>
  );
}
