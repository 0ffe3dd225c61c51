import { useTranslate } from 'react-admin';
import { HeaderCount } from '../../components/list/ListHeader';
import { StatisticsFailed } from '../../components/statistics/StatisticsFailed';
import { useCustomerStatistics } from '../customers/CustomerCounts';

/** Pending(n) and Rejected(n). */
export function ApprovalCounts() {
  const translate = useTranslate();
  const { data, isError } = useCustomerStatistics();
  if (isError) return <StatisticsFailed />;
  return (
    <>
      <HeaderCount label={translate('resources.customers.counts.pending')} value={data?.pending} color="warning.main" />
      <HeaderCount label={translate('resources.customers.counts.rejected')} value={data?.rejected} color="error.main" />
    </>
  );
}
