import { useTranslate } from 'react-admin';
import { HeaderCount } from '../../components/list/ListHeader';
import { StatisticsFailed } from '../../components/statistics/StatisticsFailed';
import { useStatistics } from '../../components/statistics/useStatistics';
import { useAppDataProvider } from '../../dataProvider';

/** Active(n) and Blocked(n) of the agent list. */
export function AgentCounts() {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { data, isError } = useStatistics(['agents', 'statistics'], () => dataProvider.getAgentStatistics());
  if (isError) return <StatisticsFailed />;
  return (
    <>
      <HeaderCount label={translate('resources.agents.counts.active')} value={data?.active} color="success.main" />
      <HeaderCount label={translate('resources.agents.counts.blocked')} value={data?.blocked} color="error.main" />
    </>
  );
}
