import { useTranslate } from 'react-admin';
import { HeaderCount } from '../../components/list/ListHeader';
import { StatisticsFailed } from '../../components/statistics/StatisticsFailed';
import { useStatistics } from '../../components/statistics/useStatistics';
import { useAppDataProvider } from '../../dataProvider';

/** GET /api/customer/statistics, shared by the customer and approval lists. */
export function useCustomerStatistics() {
  const dataProvider = useAppDataProvider();
  return useStatistics(['customers', 'statistics'], () => dataProvider.getCustomerStatistics());
}

/** Active(n) and Blocked(n) of the staff customer list. */
export function CustomerCounts() {
  const translate = useTranslate();
  const { data, isError } = useCustomerStatistics();
  if (isError) return <StatisticsFailed />;
  return (
    <>
      <HeaderCount label={translate('resources.customers.counts.active')} value={data?.active} color="success.main" />
      <HeaderCount label={translate('resources.customers.counts.blocked')} value={data?.blocked} color="error.main" />
    </>
  );
}
