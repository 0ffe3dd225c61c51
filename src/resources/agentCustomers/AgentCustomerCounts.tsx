import { useTranslate } from 'react-admin';
import { HeaderCount } from '../../components/list/ListHeader';
import { StatisticsFailed } from '../../components/statistics/StatisticsFailed';
import { useStatistics } from '../../components/statistics/useStatistics';
import { useAppDataProvider } from '../../dataProvider';

/** Active(n) and Blocked(n) of the agent's own customers. */
export function AgentCustomerCounts() {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { data, isError } = useStatistics(['agentCustomers', 'statistics'], () => dataProvider.getOwnCustomerStatistics());
  if (isError) return <StatisticsFailed />;
  return (
    <>
      <HeaderCount label={translate('resources.customers.counts.active')} value={data?.active} color="success.main" />
      <HeaderCount label={translate('resources.customers.counts.blocked')} value={data?.blocked} color="error.main" />
    </>
  );
}
